// The .roomodes importer (issue 27, item 2): Roo Code's custom modes (YAML or JSON, `customModes:
// [{slug, name, description, roleDefinition, whenToUse, customInstructions, groups}]`) as
// .hearth/modes/SLUG.md files. Roo's groups are Hearth's tool groups; an `edit` group limited by a
// fileRegex cannot be limited that way here, so it is left out (narrower, never wider) and said so.
import { parse, stringify } from "yaml";
import { TOOL_GROUPS } from "./modeDefinitions.js";

export interface ImportedMode {
  readonly name: string;
  /** The .hearth/modes/NAME.md file's text. */
  readonly text: string;
}

export type RoomodesImport = { ok: true; modes: ImportedMode[]; notes: string[] } | { ok: false; problem: string };

const SLUG = /^[a-z][a-z0-9-]{0,39}$/;

export function importRoomodes(text: string): RoomodesImport {
  let doc: unknown;
  try {
    doc = parse(text); // YAML is a superset of JSON: both of Roo's formats read the same way
  } catch (e) {
    return { ok: false, problem: `.roomodes is neither YAML nor JSON (${(e as Error).message.split("\n")[0]})` };
  }
  const list = (doc as { customModes?: unknown } | null)?.customModes;
  if (!Array.isArray(list)) return { ok: false, problem: ".roomodes has no `customModes` list" };
  const modes: ImportedMode[] = [];
  const notes: string[] = [];
  list.forEach((entry: unknown, i) => {
    const m = (entry ?? {}) as Record<string, unknown>;
    const slug = m.slug;
    if (typeof slug !== "string" || !SLUG.test(slug)) {
      notes.push(`customModes[${i}]: slug ${JSON.stringify(slug)} is not lowercase letters, digits and dashes; not imported`);
      return;
    }
    const tools: string[] = [];
    for (const g of Array.isArray(m.groups) ? m.groups : []) {
      const [group, limit] = Array.isArray(g) ? g : [g];
      if (typeof group !== "string" || !(TOOL_GROUPS as readonly string[]).includes(group) || group === "*") {
        notes.push(`${slug}: group ${JSON.stringify(group)} is not one Hearth knows (read, edit, command, browser, mcp); left out`);
      } else if (limit !== undefined) {
        notes.push(
          `${slug}: group ${group} is limited to some files in Roo (${JSON.stringify(limit)}); Hearth cannot limit it by file, so it is ` +
            `left out. Add \`${group}\` to tools in .hearth/modes/${slug}.md to offer it for every file`,
        );
      } else if (!tools.includes(group)) tools.push(group);
    }
    if (tools.length === 0) {
      tools.push("read");
      notes.push(`${slug}: no group could be imported; it offers read only`);
    }
    const description = [m.description, m.whenToUse, m.name].find((d): d is string => typeof d === "string" && d.trim() !== "") ?? "";
    const body = [m.roleDefinition, m.customInstructions].filter((s): s is string => typeof s === "string" && s.trim() !== "").join("\n\n");
    modes.push({
      name: slug,
      text: `---\n${stringify({ name: slug, description: description.trim(), tools })}---\n${body.trim()}\n`,
    });
  });
  return { ok: true, modes, notes };
}
