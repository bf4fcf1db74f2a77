// The bounded JSON Schema vocabulary shared by generation (advertised to the model, used for
// grammar-constrained calls) and re-validation before dispatch (harness #5). Anything outside
// this vocabulary is rejected when a tool is built, so the two sides can never disagree.
export type JsonSchema =
  | { type: "string"; description?: string; enum?: string[]; minLength?: number; maxLength?: number }
  | { type: "integer"; description?: string; minimum?: number; maximum?: number }
  | { type: "number"; description?: string; minimum?: number; maximum?: number }
  | { type: "boolean"; description?: string }
  | { type: "array"; description?: string; items: JsonSchema; maxItems: number }
  | {
      type: "object";
      description?: string;
      properties: Record<string, JsonSchema>;
      required?: string[];
      additionalProperties?: false;
    };

export type ObjectSchema = Extract<JsonSchema, { type: "object" }>;
