// Point names (`c3`: column letter, rank from 1): the page's one parser, and the way back.

export function parsePoint(name) {
  return { column: name.charCodeAt(0) - 97, row: parseInt(name.slice(1), 10) - 1 };
}

export function pointName(column, row) {
  return String.fromCharCode(97 + column) + (row + 1);
}
