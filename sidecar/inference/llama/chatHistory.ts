// Maps the harness's messages and tools onto node-llama-cpp's chat history and function table.
// Tool calls are rendered back into history with their results (kernel-minted call ids pair them),
// so the chat wrapper re-renders exactly what the model saw and the KV prefix stays reusable.
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, ChatModelResponse, GbnfJsonSchema } from "node-llama-cpp";
import type { ModelMessage, ModelToolDefinition } from "../../agent/ports/model.js";
import type { JsonSchema } from "../../agent/ports/jsonSchema.js";

export function toChatHistory(messages: readonly ModelMessage[]): ChatHistoryItem[] {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === "tool") results.set(m.callId, m.output);
  const history: ChatHistoryItem[] = [];
  for (const m of messages) {
    if (m.role === "system") history.push({ type: "system", text: m.text });
    else if (m.role === "user") history.push({ type: "user", text: m.text });
    else if (m.role === "assistant") {
      const response: ChatModelResponse["response"] = [];
      if (m.reasoning) response.push({ type: "segment", segmentType: "thought", text: m.reasoning, ended: true });
      if (m.text) response.push(m.text);
      for (const call of m.toolCalls) {
        const output = results.get(call.callId);
        // harness #6: every proposed call is answered by a tool message before the next round.
        if (output === undefined)
          throw new Error(
            `tool call ${call.callId} (${call.name}) has no tool result message; the harness must answer every call before the next round`,
          );
        const item: ChatModelFunctionCall = { type: "functionCall", name: call.name, params: call.arguments, result: output };
        response.push(item);
      }
      history.push({ type: "model", response });
    }
    // role "tool": folded into the assistant message that made the call (above).
  }
  return history;
}

export function toFunctions(tools: readonly ModelToolDefinition[]): ChatModelFunctions | undefined {
  if (tools.length === 0) return undefined;
  const functions: Record<string, { description: string; params: GbnfJsonSchema }> = {};
  for (const t of tools) functions[t.name] = { description: t.description, params: toGbnfSchema(t.parameters) };
  return functions;
}

/**
 * The widest integer range the grammar spells out as an enum: node-llama-cpp's grammar has no
 * minimum/maximum, so a small bounded range becomes the list of its values (enforced while
 * generating) and a wider one stays `integer`, with the schema check as the gate (docs/models.md).
 */
export const GRAMMAR_INTEGER_RANGE_LIMIT = 64;

/**
 * The bounded vocabulary (jsonSchema.ts) on node-llama-cpp's grammar schema: every keyword the
 * grammar can express is passed on; the rest (number bounds, wide integer ranges) is left to the
 * schema check before dispatch (harness #5). The grammar emits every declared property, so
 * `required` always holds.
 */
export function toGbnfSchema(s: JsonSchema): GbnfJsonSchema {
  const description = s.description === undefined ? {} : { description: s.description };
  switch (s.type) {
    case "string":
      if (s.enum) return { enum: s.enum, ...description };
      return {
        type: "string",
        ...description,
        ...(s.minLength === undefined ? {} : { minLength: s.minLength }),
        ...(s.maxLength === undefined ? {} : { maxLength: s.maxLength }),
      };
    case "integer": {
      const { minimum: min, maximum: max } = s;
      if (min !== undefined && max !== undefined && max >= min && max - Math.ceil(min) < GRAMMAR_INTEGER_RANGE_LIMIT) {
        const values = Array.from({ length: Math.floor(max) - Math.ceil(min) + 1 }, (_, i) => Math.ceil(min) + i);
        if (values.length > 0) return { enum: values, ...description };
      }
      return { type: "integer", ...description };
    }
    case "number":
    case "boolean":
      return { type: s.type, ...description };
    case "array":
      return { type: "array", items: toGbnfSchema(s.items), maxItems: s.maxItems, ...description };
    case "object": {
      const properties: Record<string, GbnfJsonSchema> = {};
      for (const [k, v] of Object.entries(s.properties)) properties[k] = toGbnfSchema(v);
      return { type: "object", properties, required: s.required ?? [], additionalProperties: false, ...description } as GbnfJsonSchema;
    }
  }
}
