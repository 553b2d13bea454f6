// Value formats both contracts share (register-events.md and partner-api.md).
import { z } from 'zod';

/** A date-time in RFC 3339, with its offset (`Z` or `±hh:mm`). */
export const dataHoraComFuso = z.iso.datetime({ offset: true });

/**
 * Any 8-4-4-4-12 hex id, in lower case. Uuids compare without case, so the projection keeps them
 * in lower case: the form partners receive, the one the API turns their ids and cursors into, and
 * the one the reader's id ranges are cut on. An id of no RFC 9562 version is still an id (not
 * found, not malformed).
 */
export const uuidMinusculo = () => z.guid().transform((id) => id.toLowerCase());
