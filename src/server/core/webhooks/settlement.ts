import type { Settlement } from './ports.ts';

/**
 * Whether settling these is a single statement (and needs no transaction): every attempt delivered to an
 * endpoint that was not failing. A failed attempt, or a delivery that ends a failing streak, also changes
 * the subscription and takes several.
 */
export const settledInOneStatement = (settlements: Settlement[]): boolean =>
  settlements.every((s) => s.outcome === 'delivered' && s.work.subscription.failingSince === null);
