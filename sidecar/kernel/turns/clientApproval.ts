// The approval port over the protocol (harness #8): each call that needs approval becomes one
// `approval/request` to the client, carrying the exact call, its input hash and a preview. While it
// waits the attempt is `waiting_approval`. A client that cannot answer is a denial, never a grant.
import { singleLine } from "../../../shared/boundedText.js";
import type { ApprovalDecision, ApprovalPort, ApprovalRequest } from "../../agent/index.js";
import type { ControlPlane } from "../control/controlPlane.js";
import type { RuleSet } from "../policy/approvalRules.js";
import { approvalByRule } from "../policy/ruleApproval.js";
import { appendAllowRule, narrowestShellPattern } from "../policy/alwaysAllow.js";
import type { WorkspaceEdit } from "../../tools/workspaceText.js";
import type { ClientChannel } from "../clientChannel.js";
import type { DecisionJournal } from "../principals/decisionJournal.js";
import { errorMessage } from "../../../shared/errors.js";

export class ClientApproval implements ApprovalPort {
  constructor(
    private readonly client: ClientChannel,
    private readonly control: ControlPlane,
    private readonly run: { sessionId: string; turnId: string; attemptId: string },
    /** The person's and a trusted workspace's approval rules (issue 27): they decide before anyone is asked. */
    private readonly rules?: RuleSet,
    /** Where every automatic decision is journaled, naming its rule (issue 27, item 4); asked ones are journaled by the asker. */
    private readonly decisions?: Pick<DecisionJournal, "record">,
    /** Writes a workspace file the kernel keeps: "Always allow" appends its rule through it (issue 27). */
    private readonly editText?: WorkspaceEdit,
    /** The kernel's log: what became of a rule the person asked for. */
    private readonly log?: (line: string) => void,
  ) {}

  async request(req: ApprovalRequest): Promise<ApprovalDecision> {
    const byRule = await approvalByRule(this.rules, req);
    if (byRule) {
      const { rule, ...decision } = byRule;
      // Who decided: the rule itself, named with where it is defined; the card says it (webview/toolCard.ts).
      this.decisions?.record(
        { ...this.run, call: req.call, inputHash: req.inputHash, effectClass: req.effectClass, preview: req.preview },
        decision,
        { by: { kind: "kernel", clientId: rule }, surface: "rule" },
      );
      return decision;
    }
    const echo = { callId: req.call.callId, inputHash: req.inputHash };
    const offer = await this.alwaysAllowOffer(req);
    this.control.transitionAttempt(this.run.turnId, this.run.attemptId, "waiting_approval");
    try {
      const answer = await this.client.request(
        "approval/request",
        {
          sessionId: this.run.sessionId,
          turnId: this.run.turnId,
          call: req.call,
          inputHash: req.inputHash,
          effectClass: req.effectClass,
          preview: req.preview,
          ...(offer ? { alwaysAllow: offer } : {}),
        },
        req.signal,
      );
      if (answer.decision === "approve" && answer.alwaysAllow === true && offer && this.editText) {
        // The person asked for the rule on this call's card: this call is approved whether or not it is written.
        const written = appendAllowRule(this.editText, offer);
        this.log?.(`run ${this.run.turnId}: Always allow \`${offer}\`: ${written.message}`);
        return { ...echo, decision: "approve", reason: singleLine(`${answer.reason}; ${written.message}`) };
      }
      return { ...echo, decision: answer.decision, reason: singleLine(answer.reason) };
    } catch (e) {
      return {
        ...echo,
        decision: "deny",
        reason: singleLine(`denied: the client could not answer the approval request (${errorMessage(e)})`),
      };
    } finally {
      if (!req.signal.aborted) this.control.transitionAttempt(this.run.turnId, this.run.attemptId, "running");
    }
  }

  /** The rule a person may write from this request: only where a workspace's rules apply (trusted), for a shell call. */
  private async alwaysAllowOffer(req: ApprovalRequest): Promise<string | null> {
    if (!this.editText || this.rules?.trust !== "trusted" || req.call.name !== "shell") return null;
    const command = (req.call.arguments as { command?: unknown }).command;
    return typeof command === "string" ? narrowestShellPattern(command) : null;
  }
}
