// The composer's mode picker (issue 27, item 2): the modes the next message may be sent in, asked
// of the kernel (modes/list, as trusted as the window's folder) whenever they may have changed.
import { z } from "zod";
import { ModeList } from "./modes.js";

export const ModesToWebview = [
  // The modes there are now; `error` when the kernel could not say (the picker keeps Code).
  z.object({ type: z.literal("modes/list"), list: ModeList.nullable(), error: z.string().optional() }),
] as const;

export const ModesFromWebview = [
  // The view loaded, a turn ended or the folder's trust changed: send the list again.
  z.object({ type: z.literal("modes/refresh") }),
] as const;
