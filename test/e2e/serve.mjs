#!/usr/bin/env node
// `npm start`: a real VS Code (code-server) with Hearth installed, on a folder, on 127.0.0.1.
// The logic is TypeScript shared with the e2e harness (support/); tsx loads it.
import { register } from "tsx/esm/api";

register();
const { serve } = await import("./support/serve.ts");
process.exitCode = await serve(process.argv.slice(2));
