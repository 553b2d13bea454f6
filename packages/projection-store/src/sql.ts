// SQL fragments shared by the reader and the writer.

/**
 * A LIMIT taken from a bound parameter. Written plainly (`LIMIT ?`), SQLite (3.47 and later)
 * reads the bound value while planning, so every new binding re-prepares the statement: about
 * 40 µs per listing page here, more than reading a page of 50. The CAST hides the parameter
 * from the planner; the result is the same.
 */
export const LIMITE_LIGADO = 'LIMIT CAST(? AS INTEGER)';
