/** What a REST handler answers: status, JSON body (Jupiter's shapes), extra headers. */
export interface RestResponse {
  readonly status: number;
  /** Serialized with JSON.stringify (bigint → decimal string); a string or a Buffer is sent as is. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}
