/**
 * The version of the rules that turn a register event into what partners see: this package's
 * mapping, its masking of private values and advertised-state test. A projection
 * records the version its documents were made with (decision 0011). Stored documents are made
 * again only by a rebuild, so the projector warns while the two differ.
 *
 * Bump it with every change to what a partner would see for the same register event, and say
 * what changed in `docs/upgrading.md` (ops read it there); the guard test beside
 * this file (`versao-das-regras.test.ts`) fails until you bump it.
 */
export const VERSAO_DAS_REGRAS = 18;
