/**
 * A part of the package could not be read. `fatal` marks what must fail the whole document
 * whichever part it is in (a DTD, a ZIP bomb, limits exceeded); otherwise the caller decides: a
 * required part (the main document) fails the request, an optional one (styles, a header) is
 * replaced by defaults and reported as a warning. Messages are plain words and name the part.
 */
export class PartError extends Error {
  override readonly name = 'PartError';
  readonly fatal: boolean;
  constructor(message: string, fatal: boolean) {
    super(message);
    this.fatal = fatal;
  }
}
