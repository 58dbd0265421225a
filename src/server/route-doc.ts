/**
 * What a REST route tells the API reference (openapi.ts) beside its request shape: which request
 * fields must be given and an example of each (`RequestDoc`), and the JSON schema of its answer
 * (`AnswerDoc`). Declared beside the routes (src/api/rest-requests/, the areas' rest-schemas.ts); the API reference tests hold
 * them to the service's own validators and answers (test/server/api-reference-*.test.ts).
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface RequestDoc {
  /** The fields that must be given, by JSON name; a nested one by its path (`params.makingAmount`). */
  readonly required?: readonly string[];
  /** An example value per field name (the same name is the same kind of value on every route). */
  readonly examples?: Readonly<Record<string, unknown>>;
  /** The only values a text field (or a list's items) takes, by JSON name: its validator's own list. */
  readonly values?: Readonly<Record<string, readonly string[]>>;
  /** The words of the Jupiter names a route accepts that the contract does not model (no comment in proto/ to take). */
  readonly descriptions?: Readonly<Record<string, string>>;
  /**
   * Contract messages inside the request whose REST JSON is not their proto JSON, by type name
   * (Jupiter's quote inside a swap request: the quote's own answer schema, `platformFee` null and all).
   */
  readonly restForms?: Readonly<Record<string, JsonSchema>>;
}

export interface AnswerDoc {
  /** The success status; 200 unless said. */
  readonly status?: number;
  /** What the success answer is, one line. */
  readonly description?: string;
  /** The success body's JSON schema; absent: the route's `produces` content, not described further. */
  readonly schema?: JsonSchema;
  /** Statuses answered with a body of the route's own rather than an error body (readiness's 503). */
  readonly alsoAnswers?: Readonly<Record<number, { readonly description: string; readonly schema: JsonSchema }>>;
  /** The named schemas (`#/components/schemas/<name>`) the answer's or the request's schemas refer to. */
  readonly components?: Readonly<Record<string, JsonSchema>>;
}
