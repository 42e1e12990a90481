// linebreak (UAX #14, used by PDFKit) ships no types.
declare module 'linebreak' {
  interface Break {
    position: number;
    required: boolean;
  }
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): Break | null;
  }
}
