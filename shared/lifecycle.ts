// Disposables, after VS Code's base/common/lifecycle.ts, kept to what Hearth uses: whatever holds a
// subscription or a resource lets go of it with dispose(), and a DisposableStore lets go of many at
// once. Disposing twice does nothing.

export interface IDisposable {
  dispose(): void;
}

/** A disposable that runs `release` once, on its first dispose(). */
export function toDisposable(release: () => void): IDisposable {
  let released = false;
  return {
    dispose() {
      if (released) return;
      released = true;
      release();
    },
  };
}

/**
 * Disposables released together, in the order they were added. Unlike VS Code's (which warns and
 * leaks it), a store that is already disposed disposes what is added to it at once.
 */
export class DisposableStore implements IDisposable {
  private readonly items = new Set<IDisposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Adds `item` and returns it, so a subscription can be made and kept in one expression. */
  add<T extends IDisposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.add(item);
    return item;
  }

  /** Disposes every item, even when one throws; then throws what they threw. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items) {
      try {
        item.dispose();
      } catch (e) {
        errors.push(e);
      }
    }
    this.items.clear();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables failed to dispose`);
  }
}
