import fs from "node:fs";
import { protocolMarkdown } from "../../shared/protocol/describe.js";

fs.writeFileSync("docs/protocol.md", protocolMarkdown());
console.log("wrote docs/protocol.md");
