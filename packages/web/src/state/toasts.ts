import { Store } from './store.js';

export const ToastKind = { ERROR: 'error', INFO: 'info', SUCCESS: 'success' } as const;
export type ToastKind = (typeof ToastKind)[keyof typeof ToastKind];

export interface Toast {
  readonly id: number;
  readonly kind: ToastKind;
  readonly text: string;
}

const LIFETIME_MS = 6_000;
const MAX_VISIBLE = 4;

/** Plain-language notices, newest last. The same sentence twice in a row is shown once. */
export class Toasts {
  readonly store = new Store<readonly Toast[]>([]);
  private nextId = 1;

  show(text: string, kind: ToastKind = ToastKind.ERROR): void {
    const current = this.store.get();
    if (current.at(-1)?.text === text) return;
    const toast: Toast = { id: this.nextId++, kind, text };
    this.store.set([...current, toast].slice(-MAX_VISIBLE));
    setTimeout(() => this.dismiss(toast.id), LIFETIME_MS);
  }

  dismiss(id: number): void {
    this.store.update((list) => (list.some((t) => t.id === id) ? list.filter((t) => t.id !== id) : list));
  }
}
