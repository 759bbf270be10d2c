/**
 * A text cell, safe in a spreadsheet: each part of it starting with =, +, -, @ (or a tab or carriage return, which
 * some spreadsheets skip before reading a formula) is prefixed with an apostrophe, so that it is shown as text and
 * never run as a formula (CSV injection). A part is the cell's start and what follows each semicolon, comma or line
 * break (spaces skipped): a spreadsheet of a semicolon locale splits cells there, so the items cell's
 * "Dal; =2+2" (or a dish named "a;=2+2") would run its second part. Every text cell is then quoted as RFC 4180
 * says, its quotes doubled, which keeps it one cell whatever the separator a spreadsheet reads with.
 */
export function textCell(value: string): string {
  const inert = value.replace(/(^|[;,\r\n])( *)([=+\-@\t\r])/g, "$1$2'$3");
  return `"${inert.replaceAll('"', '""')}"`;
}

/**
 * A CSV file (RFC 4180, CRLF line ends, UTF-8 with a byte order mark so that spreadsheets read accents right) of
 * rows of cells already written (`textCell` for text, plain digits for numbers).
 */
export const csvFile = (rows: readonly (readonly string[])[]) =>
  `\uFEFF${rows.map((row) => row.join(',')).join('\r\n')}\r\n`;
