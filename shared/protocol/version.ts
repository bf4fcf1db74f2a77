/** Bumped on any incompatible change to a schema in this folder. */
export const PROTOCOL_VERSION = 2;
