/** A PostgreSQL identifier in double quotes (for schema names, which cannot be parameters). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
