/**
 * One table's stacks as its worker holds them: the top-level `money` section of the worker's
 * checkpoint (docs/dev/money-flows.md §7), which `npm run audit` (@felt/db `runAudit`) compares
 * with the escrows. Stacks of a hand in progress are the hand-start stacks.
 */
export interface LiveTableMoney {
  readonly lastHandNo: number;
  readonly seats: readonly {
    readonly userId: string;
    readonly stack: number;
    /** Top-ups added to the stack that no persisted hand or cash-out has reported yet. */
    readonly appliedTopUps: readonly { readonly id: string; readonly applied: number }[];
  }[];
}
