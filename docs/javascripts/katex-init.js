// Typeset the page's formulas with the KaTeX copy beside this file (scripts/vendor_katex.sh): arithmatex's \( \) and
// \[ \], and the $$ blocks of the tutorials' notebook outputs. A single $ is not a delimiter: prose uses it.
document$.subscribe(({ body }) => {
  renderMathInElement(body, {
    delimiters: [
      { left: "$$", right: "$$", display: true },
      { left: "\\[", right: "\\]", display: true },
      { left: "\\(", right: "\\)", display: false },
    ],
    throwOnError: false,
  });
});
