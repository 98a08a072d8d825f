/** Values as a person lists the choices: `4, 8 or 12`; `none` when there are none. */
export function orList(values: ReadonlyArray<string | number>): string {
  if (values.length === 0) return 'none';
  return values.length === 1 ? String(values[0]) : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}
