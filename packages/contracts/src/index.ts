// The contracts of the service: register events in, partner resources out.
export * from './register-events.ts';
export * from './decode.ts';
export * from './partner-api.ts';
export { valoresPrivados, type ValoresPrivados } from './privados.ts';
