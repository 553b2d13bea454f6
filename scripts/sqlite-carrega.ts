// Loads SQLite's binding as the services do, after an install (scripts/setup.sh, the Dockerfile):
// it is an optional dependency (decision 0012), so a failed build does not fail the install, and
// this stops the set-up there with the projection store's one-line explanation.
const { MODULO_SQLITE } = await import('@imoveis/projection-store');
console.log(`${MODULO_SQLITE}: ok`);
