// harness #4: provider tool-call ids are untrusted. The session mints UUIDv7 ids and refuses reuse
// within its complete history; ids issued by a turn that rolls back are forgotten with it (#10, #18).
import { isUuidv7, uuidv7 } from "../../shared/ids.js";

export class CallIdRegistry {
  private readonly known = new Set<string>();
  private issued: string[] = [];

  /** Registers an id from replayed history; a repeat or a non-UUIDv7 id is a structural error. */
  adopt(id: string): void {
    if (!isUuidv7(id)) throw new Error(`call id ${JSON.stringify(id)} is not a kernel-minted UUIDv7`);
    if (this.known.has(id)) throw new Error(`call id ${id} appears twice in the history`);
    this.known.add(id);
  }

  mint(): string {
    let id = uuidv7();
    while (this.known.has(id)) id = uuidv7();
    this.known.add(id);
    this.issued.push(id);
    return id;
  }

  /** Position to roll back to: ids minted after it are forgotten by `rollback`. */
  cursor(): number {
    return this.issued.length;
  }

  rollback(cursor: number): void {
    for (const id of this.issued.splice(cursor)) this.known.delete(id);
  }

  has(id: string): boolean {
    return this.known.has(id);
  }
}
