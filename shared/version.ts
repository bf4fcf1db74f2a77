import pkg from "../package.json" with { type: "json" };

/** The exact package version: reported by `initialize` and sent by Hearth's HTTP clients (harness #11). */
export const HEARTH_VERSION: string = pkg.version;

/** What every HTTP client of Hearth's sends as its User-Agent: web_fetch, model servers, downloads (harness #11). */
export const USER_AGENT = `Hearth/${HEARTH_VERSION}`;
