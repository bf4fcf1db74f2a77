// A message that cannot fit the model's context even alone (issue 25 item 8: a 200 KB paste sent
// anyway). Condensing the earlier turns cannot make room for it, so the turn is refused before
// anything is condensed, with the numbers a person needs to shorten it.
import type { MessageTooLong } from "../../shared/protocol/index.js";
import { TurnFailed } from "./turnOutcome.js";

const n = (tokens: number) => tokens.toLocaleString("en");

export class MessageTooLongFailure extends TurnFailed {
  constructor(readonly tooLong: MessageTooLong) {
    super(
      "message_too_long",
      `refused: the message is ${n(tooLong.messageTokens)} tokens, and a message may take ${n(tooLong.roomTokens)} of the ` +
        `${n(tooLong.contextSize)} tokens this model reads at once (the rest holds the instructions, the tools and the answer); ` +
        "the model was not shown it and will not see it in later turns; shorten it (keep the part that matters) and send it again",
    );
  }
}
