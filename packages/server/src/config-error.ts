/**
 * A setting that is wrong. Apart from config.ts, which loads the schema validator, so that the
 * CLI can recognise the error without loading it for commands that read no settings.
 */
export class ConfigError extends Error {}
