// The tool list the model reads, one line a tool (issue 25, item 10): the Qwen template's JSON
// schemas spent 2,700 of an 8k context's tokens before the person's first word. The grammar that
// constrains a call's arguments is still built from the full schemas (bounds, enums) and the schema
// check still gates dispatch (harness #5), so the model only needs each tool's name, its parameters
// with their types, and what it does. The call syntax around the list is the template's own, as
// node-llama-cpp's QwenChatWrapper writes it: the model answers in the format it was trained on.
import { type ChatModelFunctions, type GbnfJsonSchema, LlamaText, QwenChatWrapper, SpecialTokensText } from "node-llama-cpp";

type Thoughts = QwenChatWrapper["thoughts"];

/** `name(param: type, optional?: type): description`, one line a tool. */
export function toolSignatureLines(functions: ChatModelFunctions, documentParams: boolean): string {
  return Object.entries(functions)
    .map(([name, f]) => {
      const params = documentParams && f.params ? parameterList(f.params) : "";
      const description = f.description?.trim().replaceAll("\n", " ");
      return `${name}(${params})${description ? `: ${description}` : ""}`;
    })
    .join("\n");
}

function parameterList(schema: Readonly<GbnfJsonSchema>): string {
  if (!("properties" in schema) || !schema.properties) return "";
  const required = new Set("required" in schema ? (schema.required ?? []) : []);
  return Object.entries(schema.properties)
    .map(([key, value]) => `${key}${required.has(key) ? "" : "?"}: ${typeName(value)}`)
    .join(", ");
}

function typeName(schema: Readonly<GbnfJsonSchema>): string {
  if ("enum" in schema && schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join("|");
  if ("items" in schema && schema.items) return `${typeName(schema.items as GbnfJsonSchema)}[]`;
  if ("type" in schema && typeof schema.type === "string") return schema.type;
  return "any";
}

/** Qwen's wrapper with the one-line tool list (its 3.5 variation, whose call syntax is XML, is left as it is). */
export class LeanQwenChatWrapper extends QwenChatWrapper {
  override generateAvailableFunctionsSystemText(availableFunctions: ChatModelFunctions, options: { documentParams?: boolean }): LlamaText {
    if (this.variation !== "3" || Object.keys(availableFunctions).length === 0)
      return super.generateAvailableFunctionsSystemText(availableFunctions, options);
    const special = (text: string) => new SpecialTokensText(text);
    return LlamaText.joinValues("\n", [
      "# Tools",
      "",
      "You may call one or more functions to assist with the user query.",
      "",
      LlamaText("You are provided with function signatures within ", special("<tools></tools>"), " XML tags:"),
      LlamaText(special("<tools>")),
      toolSignatureLines(availableFunctions, options.documentParams ?? true),
      LlamaText(special("</tools>")),
      "",
      LlamaText(
        "For each function call, return a json object with function name and arguments within ",
        special("<tool_call></tool_call>"),
        " XML tags:",
      ),
      LlamaText(special("<tool_call>")),
      '{"name": <function-name>, "arguments": <args-json-object>}',
      LlamaText(special("</tool_call>")),
    ]);
  }
}

/**
 * A lean Qwen wrapper rendering everything else exactly as `base` does, with `thoughts` (the
 * thinking switch, harness #15). The internal options are the ones resolveChatWrapper may have
 * chosen to match the GGUF template; they are carried over.
 */
export function leanQwenWrapper(base: QwenChatWrapper, thoughts: Thoughts = base.thoughts): LeanQwenChatWrapper {
  const internal = base as unknown as { _flatFunctionResultString: boolean; _ensureModelThoughtBeforeTextOnLastResponse: boolean };
  const prefix = base.settings.functions.call.prefix as unknown as { values?: readonly unknown[] };
  return new LeanQwenChatWrapper({
    keepOnlyLastThought: base.keepOnlyLastThought,
    variation: base.variation,
    thoughts,
    _lineBreakBeforeFunctionCallPrefix: prefix.values?.[0] === "\n",
    _flatFunctionResultString: internal._flatFunctionResultString,
    _ensureModelThoughtBeforeTextOnLastResponse: internal._ensureModelThoughtBeforeTextOnLastResponse,
  } as ConstructorParameters<typeof QwenChatWrapper>[0]);
}
