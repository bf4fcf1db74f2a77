import pkg from "../package.json" with { type: "json" };

/** The exact package version: reported by `initialize` and sent by Hearth's HTTP clients (harness #11). */
export const HEARTH_VERSION: string = pkg.version;
