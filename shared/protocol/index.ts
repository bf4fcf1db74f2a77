export * from "./version.js";
export * from "./records.js";
export * from "./methods.js";
export * from "./tasks.js";
export * from "./webview.js";
export * from "./principals.js";
export * from "./instructions.js";
export * from "./mcp.js";
