/** The service version, as the OpenAPI document and `snapgraph --version` report it. */
export const VERSION = '0.1.0';
