/** Removes the listener it was returned for. */
export type Unsubscribe = () => void;

/**
 * A small typed event emitter that runs the same in browsers and Node. A listener that throws does
 * not stop the others or corrupt the SDK's state: its error is rethrown in a microtask, where the
 * host (window.onerror, Node's uncaughtException) reports it.
 */
export class Emitter<Events extends { [K in keyof Events]: unknown }> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): Unsubscribe {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => void set.delete(listener);
  }

  once<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): Unsubscribe {
    const off = this.on(event, (payload) => {
      off();
      listener(payload);
    });
    return off;
  }

  /** Resolves with the next payload of `event` for which `match` holds. */
  next<K extends keyof Events>(event: K, match: (payload: Events[K]) => boolean = () => true): Promise<Events[K]> {
    return new Promise((resolve) => {
      const off = this.on(event, (payload) => {
        if (!match(payload)) return;
        off();
        resolve(payload);
      });
    });
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (p: Events[K]) => void)(payload);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  listenerCount(event: keyof Events): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  removeAll(): void {
    this.listeners.clear();
  }
}
