import { limits } from '../../contract/limits.ts';
import { AppError } from './errors.ts';

/** Calls that take entities take at most 100 of them (interface, "Limits"); more is 403 TOO_MANY_ENTITIES. */
export function assertEntityCount(count: number): void {
  if (count > limits.maxEntitiesPerCall) {
    throw new AppError('TOO_MANY_ENTITIES', `At most ${limits.maxEntitiesPerCall} entities may be passed in one call`, {
      limit: limits.maxEntitiesPerCall,
      given: count,
    });
  }
}
