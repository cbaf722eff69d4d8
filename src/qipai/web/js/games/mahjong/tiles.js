// Tiles drawn as text and CSS (no images): a number and the suit's character (万 筒 条), 红中 as 中; the kinds
// in the engine's notation (``3m``, ``7p``, ``9s``, ``Z``) and their canonical order.
import { h } from "../../shell/util.js";
import { t } from "./words.js";

export const SUITS = "mps";

/** The kind's index 0..27 (1m..9m, 1p..9p, 1s..9s, Z) for sorting. */
export function tileIndex(tile) {
  if (tile === "Z") return 27;
  return SUITS.indexOf(tile[1]) * 9 + Number(tile[0]) - 1;
}

/** ``"234m 55p Z"`` (runs of digits before a suit letter; ``Z`` alone) → ``["2m", "3m", "4m", "5p", "5p", "Z"]``. */
export function parseTiles(text) {
  const out = [];
  for (const part of String(text || "").split(/\s+/)) {
    if (!part) continue;
    let digits = "";
    for (const ch of part) {
      if (/[1-9]/.test(ch)) digits += ch;
      else if (SUITS.includes(ch)) {
        for (const d of digits) out.push(d + ch);
        digits = "";
      } else if (ch === "Z") out.push("Z");
    }
  }
  return out;
}

export function sortTiles(tiles) {
  return [...tiles].sort((a, b) => tileIndex(a) - tileIndex(b));
}

/** A tile in words (``3万``, ``红中``; ``3 dots``, ``1 dot``). */
export function tileName(tile) {
  if (tile === "Z") return t("tile_Z");
  return t("tile_name", { n: tile[0], suit: t((tile[0] === "1" ? "suitname1_" : "suitname_") + tile[1]) });
}

export function tilesText(tiles) {
  return (Array.isArray(tiles) ? tiles : parseTiles(tiles)).map(tileName).join(" ");
}

/** One tile element: ``size`` "" (the hand), "sm" (rivers, melds) or "xs" (seat boxes); ``back`` face down. */
export function tileEl(tile, { size = "", back = false, cls = "" } = {}) {
  const classes = ["mj-tile", size, cls].filter(Boolean).join(" ");
  if (back || !tile) return h("span", { class: classes + " back", role: "img", "aria-label": t("tile_hidden") });
  const suit = tile === "Z" ? "z" : tile[1];
  const el = h("span", { class: `${classes} s-${suit}`, dataset: { tile }, title: tileName(tile), role: "img",
    "aria-label": tileName(tile) });
  if (tile === "Z") el.append(h("b.n", "中"));
  else el.append(h("b.n", tile[0]), h("i.su", t("suit_" + suit)));
  return el;
}

/** A meld ({type, tiles, claimed, from}) as a row of tiles, the claimed tile turned. */
export function meldEl(meld, size = "sm") {
  const tiles = parseTiles(meld.tiles);
  const turned = tiles.indexOf(meld.claimed);
  const el = h("span.mj-meld", { dataset: { type: meld.type, tiles: meld.tiles } });
  for (let i = 0; i < tiles.length; i++) el.append(tileEl(tiles[i], { size, cls: i === turned ? "claimed" : "" }));
  return el;
}
