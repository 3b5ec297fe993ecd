// FIDE's federation codes (a round file's white_fed: ITA) and the flag each is shown with:
// the country's ISO 3166 code, drawn as the emoji flag (a system without flag emoji shows
// its two letters); the three-letter code is always written beside it.
"use strict";
const FED_ISO = {
  AFG: "AF", ALB: "AL", ALG: "DZ", AND: "AD", ANG: "AO", ANT: "AG", ARG: "AR", ARM: "AM", ARU: "AW",
  AUS: "AU", AUT: "AT", AZE: "AZ", BAH: "BS", BRN: "BH", BAN: "BD", BAR: "BB", BLR: "BY", BEL: "BE",
  BIZ: "BZ", BEN: "BJ", BER: "BM", BHU: "BT", BOL: "BO", BIH: "BA", BOT: "BW", BRA: "BR", IVB: "VG",
  BRU: "BN", BUL: "BG", BUR: "BF", BDI: "BI", CAM: "KH", CMR: "CM", CAN: "CA", CPV: "CV", CAY: "KY",
  CAF: "CF", CHA: "TD", CHI: "CL", CHN: "CN", TPE: "TW", COL: "CO", COM: "KM", CGO: "CG", COD: "CD",
  CRC: "CR", CIV: "CI", CRO: "HR", CUB: "CU", CYP: "CY", CZE: "CZ", DEN: "DK", DJI: "DJ", DMA: "DM",
  DOM: "DO", ECU: "EC", EGY: "EG", ESA: "SV", ENG: "GB-ENG", GEQ: "GQ", ERI: "ER", EST: "EE", SWZ: "SZ",
  ETH: "ET", FAI: "FO", FIJ: "FJ", FIN: "FI", FRA: "FR", GAB: "GA", GAM: "GM", GEO: "GE", GER: "DE",
  GHA: "GH", GRE: "GR", GRN: "GD", GUM: "GU", GUA: "GT", GCI: "GG", GUY: "GY", HAI: "HT", HON: "HN",
  HKG: "HK", HUN: "HU", ISL: "IS", IND: "IN", INA: "ID", IRI: "IR", IRQ: "IQ", IRL: "IE", IOM: "IM",
  ISR: "IL", ITA: "IT", JAM: "JM", JPN: "JP", JCI: "JE", JOR: "JO", KAZ: "KZ", KEN: "KE", KOS: "XK",
  KUW: "KW", KGZ: "KG", LAO: "LA", LAT: "LV", LBN: "LB", LES: "LS", LBR: "LR", LBA: "LY", LIE: "LI",
  LTU: "LT", LUX: "LU", MAC: "MO", MAD: "MG", MAW: "MW", MAS: "MY", MDV: "MV", MLI: "ML", MLT: "MT",
  MTN: "MR", MRI: "MU", MEX: "MX", MDA: "MD", MNC: "MC", MON: "MC", MGL: "MN", MNE: "ME", MAR: "MA",
  MOZ: "MZ", MYA: "MM", NAM: "NA", NRU: "NR", NEP: "NP", NED: "NL", NZL: "NZ", NCA: "NI", NIG: "NE",
  NGR: "NG", MKD: "MK", NOR: "NO", OMA: "OM", PAK: "PK", PLW: "PW", PLE: "PS", PAN: "PA", PNG: "PG",
  PAR: "PY", PER: "PE", PHI: "PH", POL: "PL", POR: "PT", PUR: "PR", QAT: "QA", ROU: "RO", RUS: "RU",
  RWA: "RW", SKN: "KN", LCA: "LC", VIN: "VC", SMR: "SM", STP: "ST", KSA: "SA", SCO: "GB-SCT", SEN: "SN",
  SRB: "RS", SEY: "SC", SLE: "SL", SGP: "SG", SVK: "SK", SLO: "SI", SOL: "SB", SOM: "SO", RSA: "ZA",
  KOR: "KR", PRK: "KP", SSD: "SS", ESP: "ES", SRI: "LK", SUD: "SD", SUR: "SR", SWE: "SE", SUI: "CH",
  SYR: "SY", TJK: "TJ", TAN: "TZ", THA: "TH", TLS: "TL", TOG: "TG", TGA: "TO", TTO: "TT", TUN: "TN",
  TUR: "TR", TKM: "TM", UGA: "UG", UKR: "UA", UAE: "AE", USA: "US", URU: "UY", ISV: "VI", UZB: "UZ",
  VAN: "VU", VEN: "VE", VIE: "VN", WLS: "GB-WLS", YEM: "YE", ZAM: "ZM", ZIM: "ZW",
};

// The flag emoji of an ISO code: two regional indicator letters, or for England, Scotland
// and Wales the black flag with the subdivision's tag letters.
function flagEmoji(iso) {
  if (iso.length === 2) return String.fromCodePoint(...[...iso].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
  const tag = iso.replace("-", "").toLowerCase();
  return String.fromCodePoint(0x1f3f4, ...[...tag].map((c) => 0xe0000 + c.charCodeAt(0)), 0xe007f);
}

// A federation as the page shows it: its flag (when FIDE's code is known) and the code.
function fedHtml(code) {
  const iso = FED_ISO[code];
  const flag = iso ? `<span class="flag-emoji" aria-hidden="true">${flagEmoji(iso)}</span> ` : "";
  return `<span class="fed" data-fed="${esc(code)}" title="federation ${esc(code)}">${flag}${esc(code)}</span>`;
}
