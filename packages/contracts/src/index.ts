// The contracts of the service: register events in, partner resources out.
export * from './register-events.ts';
export * from './decode.ts';
export * from './partner-api.ts';
export { MARCADOR_REMOVIDO, UNIDADE_DEPOIS, mascaraDePrivados, valoresPrivados, type ValoresPrivados } from './privados.ts';
