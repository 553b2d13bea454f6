/**
 * The version of the rules that turn a register event into what partners see: this package's
 * mapping and advertised-state test, and the contracts' masking of private values. A projection
 * records the version its documents were made with (decision 0011). Stored documents are made
 * again only by a rebuild, so the projector warns while the two differ.
 *
 * Bump it with every change to what a partner would see for the same register event;
 * the guard test in projection-store (`versao-das-regras.test.ts`) fails until you do.
 */
// 2: a count past 2^53 becomes null; half a UTF-16 pair alone becomes U+FFFD (2026-11-22).
// 3: private names and codes found as partners read the text (any case, entities, tags); invisible
// characters dropped; more contact shapes; photo keys with a `.` segment left out; `uf` in Latin
// letters only (2026-11-23).
// 4: private values masked in the plain text partners read: names without accents, titles or
// suffixes; codes and the owner's and agent's telephones, CPF and e-mails by their digits or as
// sent (2026-11-23, after two reviews of 3).
// 5: private names masked with any of their middle names between first and last name, whole or as
// initials (`Renata M. S. Vieira`), or surname first after one comma (2026-11-23).
// 6: mobile numbers in the groupings some type (`987 654 321`, `98 765 4321`, `9876-54321`), and
// any grouping after a word that says telephone (`Tel. 33 33 44 44`), removed; so are e-mail
// addresses typed to slip past filters (`joao arroba gmail ponto com`, `joao @ gmail . com`); a
// description cut inside a tag (`<a href="`) is laid out, where it failed; numbers in a list typed
// without spaces (`98765-4321,98765-1234`) removed; neighbouring units (`Aptos 1101-1102`, `2201
// 2202`) and codes (`NBR 15575-2013`) kept; numbers glued to a word that says contact
// (`TEL98765-4321`, `CPF529.982.247-25`) or spaced out after one removed; a CEP after `+` kept;
// the alphanumeric CNPJ (`12.ABC.345/01DE-35`) removed; lists of values (`951 952 953`, `… m²`)
// and providers' names as words (`Living at Terra Nova`) kept; a keycap emoji (`1️⃣`) keeps its
// variation selector (2026-11-23, after two reviews).
// 7: a letter glued after a number (`(11) 98765-4321Chame`, as an editor's inline tags leave it)
// no longer hides it: a telephone is read by its shape and context as with a space there, a CPF or
// CNPJ by its check digits; a `condominio_id` that is no uuid read as none, the event applied
// rather than dead-lettered (2026-11-23, after a review of register-events.md).
// 8: styled letters and digits read, and sent, as the plain ones (`９８７６５`, `𝐋𝐢𝐠𝐮𝐞 𝟏𝟏 𝟗𝟖𝟕𝟔𝟓-𝟒𝟑𝟐𝟏`;
// circled, keycap and superscript ones in a row: `①①`, `1️⃣1️⃣`), so contacts and private names
// typed so are removed; `*`, `•`, `·` split groups of digits as a space does; a mobile number
// spelled out a digit at a time, a provider after a spaced `@` or `arroba`, a dot before a CPF's
// check digits removed; `Celso`, `Telhado` no longer say telephone; a CEP after `CEP`, units some
// floors apart and rows of units kept (2026-11-23, after two reviews that typed contacts as agents
// dodging filters do).
// 9: a title, `tipo`, street, neighbourhood, city or feature of only invisible characters is empty
// (null, dropped, the default title); features differing only by them are one; the internal notes
// and where the keys are, copied into the text whole or by a sentence, are masked; an allowed
// value typed with combining accents (`Disponi\u0301vel`) is that value, so the property is
// advertised (2026-11-23, after a review of register-events.md).
// 10: a description of only invisible characters is null, and a line of them between paragraphs is
// blank (at most one blank line in a row); a number typed across two lines after its dash
// (`98765-<br>4321`) is removed (2026-11-24, after a review of register-events.md).
// 11: spaces, dashes, dots and slashes of other widths read, and sent, as the common ones
// (`97777\u20091234`, `98765\u22124321`: they hid telephones and the owner's CPF from the patterns);
// a CPF or CNPJ in any grouping (`529 . 982 . 247 - 25`, `111•444•777-35`, `11.222.333 0001-81`)
// removed when its check digits are valid, never one whose check digits follow a comma (an
// amount: `172.000.000,00`); a landline number after a bare area code with its last four digits
// in pairs (`11 3333 44 44`) removed; an empty list item leaves no `-`; YouTube's `/e/` and share
// links read (2026-11-24, after a review of register-events.md and a probe of its first form).
// 12: contacts and the record's private values removed from `tipo` and the features too, and so
// from a default title made of that `tipo` (`Ligue [removido]`); values holding none stay exactly
// as typed (2026-11-24, after a review of register-events.md).
export const VERSAO_DAS_REGRAS = 12;
