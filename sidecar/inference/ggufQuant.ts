// A GGUF file's quantisation, read from its header (issue 10, item 3): the `general.file_type`
// field when the file has one, else the type most of its tensors use, else the file name's tag.
import { GgmlType, GgufFileType, readGgufFileInfo } from "node-llama-cpp";

const NAME_TAG = /(?:^|[-_.])((?:I?Q\d(?:_[A-Z0-9]+)*)|F16|F32|BF16)(?=[-_.]|$)/i;

export async function readQuantization(file: string): Promise<string | null> {
  try {
    const info = await readGgufFileInfo(file, {
      readTensorInfo: true,
      logWarnings: false,
      ignoreKeys: ["tokenizer.ggml.tokens", "tokenizer.ggml.merges", "tokenizer.ggml.token_type", "tokenizer.ggml.scores"],
    });
    const fileType = info.metadata?.general?.file_type;
    if (typeof fileType === "number" && GgufFileType[fileType]) return GgufFileType[fileType]!.replace(/^(MOSTLY|ALL)_/, "");
    const counts = new Map<string, number>();
    for (const t of info.fullTensorInfo ?? []) {
      if (t.dimensions.length < 2) continue; // norms and biases stay F32 in every quantisation
      const name = GgmlType[t.ggmlType];
      if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const dominant = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (dominant) return dominant;
  } catch {
    // An unreadable header falls back to the name: Ollama blobs and partial files are still listed.
  }
  return NAME_TAG.exec(file.split(/[\\/]/).pop() ?? "")?.[1]?.toUpperCase() ?? null;
}
