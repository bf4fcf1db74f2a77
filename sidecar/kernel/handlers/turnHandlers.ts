// turn/start (with attachments), turn/apply, turn/cancel, turn/follow, session/erase and session/compact:
// thin calls into the turn service, the attachments reader, erasure and condensing.
import type { Condensation } from "../../../shared/protocol/records.js";
import type { ShutdownGate } from "../shutdownGate.js";
import { applyMessage } from "../../../shared/applyMessage.js";
import { attachedUrls, type MessageAttachments } from "../context/messageAttachments.js";
import { ErrorCode, HearthError } from "../../../shared/errors.js";
import type { InstructionReader } from "../context/instructionReader.js";
import type { ModeReader } from "../modes/modeCatalog.js";
import type { SessionErase } from "../erase/sessionErase.js";
import type { TurnService } from "../turns/turnService.js";
import type { TurnNarrowing } from "../../../shared/node/kernelSettingsView.js";
import type { ClientChannel, Handlers } from "./types.js";

export function turnHandlers(deps: {
  turns: TurnService;
  attachments: MessageAttachments;
  erase: SessionErase;
  gate: ShutdownGate;
  compact: (sessionId: string, client: ClientChannel) => Promise<Condensation | null>;
  /** The starting client's stricter settings, for its runs (clientNarrowings.ts). */
  narrowing: (client: ClientChannel) => TurnNarrowing | undefined;
  /** The project instructions as they are now (issue 27), pinned with each chat turn. */
  instructions: InstructionReader;
  /** The modes as they are now (issue 27, item 2): the one named is pinned with the turn. */
  modes: ModeReader;
  /** Whether this kernel offers web_fetch (its opt-in, harness #11): an `@url` needs it. */
  webFetch: boolean;
}) {
  return {
    "turn/start": async ({ attachments, mode: modeName, ...params }, ctx) => {
      deps.gate.assertAccepting("turn/start");
      deps.erase.assertNotErased(params.sessionId);
      const narrowing = deps.narrowing(ctx.client);
      const mode = await deps.modes.resolve(modeName, params.readOnly === true);
      const instructions = await deps.instructions(params.readOnly === true, mode.name);
      if (!attachments?.length) return deps.turns.start({ ...params, narrowing, instructions, mode }, ctx);
      const fetchFirst = attachedUrls(attachments);
      if (fetchFirst.length && !deps.webFetch)
        throw new HearthError(
          ErrorCode.Refused,
          "refused: an attached web page is fetched with web_fetch, which is off: turn on the setting hearth.tools.webFetch " +
            "(HEARTH_WEB_FETCH=1 for the CLI; each fetch still asks first), or remove the url chip, then send again",
        );
      if (fetchFirst.length && params.readOnly === true)
        throw new HearthError(
          ErrorCode.Refused,
          "refused: in Restricted Mode Hearth only reads this folder, and an attached web page is fetched from the network: " +
            "trust the folder (Manage Workspace Trust), or remove the url chip, then send again",
        );
      const { message, records } = await deps.attachments.compose(params.message, attachments, params.readOnly === true);
      // The attachment rows are admitted with the message, in its transaction: never one without the other.
      const started = await deps.turns.start({ ...params, message, attachments: records, fetchFirst, narrowing, instructions, mode }, ctx);
      return { ...started, attachedBytes: records.map((r) => r.bytes) };
    },
    // issue 15: "Apply to file" is a turn whose one call is the kernel's write_file, approved in the file.
    "turn/apply": async (params, ctx) => {
      deps.gate.assertAccepting("turn/apply");
      deps.erase.assertNotErased(params.sessionId);
      const apply = { path: params.path, content: params.content };
      const narrowing = deps.narrowing(ctx.client);
      return deps.turns.start(
        { sessionId: params.sessionId, message: applyMessage(apply.path), readOnly: params.readOnly, apply, narrowing },
        ctx,
      );
    },
    "turn/cancel": async (params) => deps.turns.cancel(params.turnId),
    "turn/follow": async (params, ctx) => deps.turns.follow(params.turnId, ctx.client),
    "session/erase": async (params) => ({ sessionId: params.sessionId, erased: true as const, ...deps.erase.erase(params.sessionId) }),
    "session/compact": async (params, ctx) => {
      deps.gate.assertAccepting("session/compact");
      return { condensation: await deps.compact(params.sessionId, ctx.client) };
    },
  } satisfies Handlers;
}
