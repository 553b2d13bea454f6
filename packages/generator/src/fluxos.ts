// Names of the independent PRNG streams: each kind of draw has its own, so adding draws to one
// (a new photo, a private edit) never shifts the values of another.

export const FLUXO_IMOVEL = 1;
export const FLUXO_CONDOMINIO = 2;
export const FLUXO_PRIVADOS_IMOVEL = 3;
export const FLUXO_FOTO_EXTRA = 4;
export const FLUXO_NOME_CONDOMINIO = 5;
export const FLUXO_SINDICO = 6;
export const FLUXO_MUTACOES = 7;
export const FLUXO_CORRETORES = 8;
export const FLUXO_VALORES_RUINS = 9;

/** Spacing of the initial load on the register's clock: one property every 250 ms. */
export const PASSO_CARGA_MS = 250;
