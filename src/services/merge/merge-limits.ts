/** How many documents one merge takes (issue 27: 2–50), for both the PDF and the DOCX core. */
export const MIN_MERGE_DOCUMENTS = 2;
export const MAX_MERGE_DOCUMENTS = 50;
