/** Runs of a prepared statement before it is prepared again the first time; the gap grows 4× up to the cap. */
const FIRST_GAP = 16;
const GAP_CAP = 4096;

/**
 * When a prepared statement is prepared again. PostgreSQL settles on a generic plan at a statement's sixth
 * run, costed on the tables' sizes of that moment, and keeps it until the tables' statistics change (an
 * autovacuum's analyze, a minute or more later). A new installation fills its tables from empty, so a plan
 * made for a table of a few rows (a sequential scan of `messages`, hashed) would go on scanning it while
 * it grows by thousands of rows a second. Each statement is therefore prepared again after 16 runs, then
 * after 4 times as many runs each time, up to every 4,096: plans made on small tables are soon replaced,
 * and a statement that has run for long costs a fresh parse and plan once in thousands of runs.
 */
export class ReplanSchedule {
  #runs = 0;
  #gap = FIRST_GAP;

  /** Counts a run; true when the statement should be prepared anew before its next run. */
  ran(): boolean {
    if (++this.#runs < this.#gap) return false;
    this.#runs = 0;
    this.#gap = Math.min(this.#gap * 4, GAP_CAP);
    return true;
  }
}
