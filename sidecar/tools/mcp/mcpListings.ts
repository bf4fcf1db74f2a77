// A server's prompts and resources as Hearth lists them (issue 28, item 5): read page by page, with
// a bound on pages and on items, so a server that pages forever or lists millions cannot stall a list.
/** A prompt as the server listed it: its name, description and arguments. */
export interface McpListedPrompt {
  readonly name: string;
  readonly description?: string;
  readonly arguments?: readonly { readonly name: string; readonly description?: string; readonly required?: boolean }[];
}

/** A resource as the server listed it. */
export interface McpListedResource {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export const MAX_PAGES = 20;
/** The most items of one kind kept from one server (the `@` picker filters them as the person types). */
export const MAX_LISTED = 1000;

/** Every page until there is no next cursor, at most MAX_PAGES pages and MAX_LISTED items. */
export async function readPages<T>(page: (cursor: string | undefined) => Promise<{ items: readonly T[]; next?: string }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES && out.length < MAX_LISTED; i++) {
    const r = await page(cursor);
    out.push(...r.items.slice(0, MAX_LISTED - out.length));
    cursor = r.next;
    if (!cursor) break;
  }
  return out;
}
