// A profile's world and national ranks, from its bucket's rank file (ranks/<bucket>.js, which
// calls fiderateRanks.add). The ranks move for everyone every month, so they are not written on
// the profile (its bytes stay the same while the player does not play: docs/web.md); nor is
// the bucket, since how many buckets there are follows the number of ranked players: the
// profile loads ranks/buckets.js, which calls fiderateRanks.buckets with the count, and the
// bucket is worked out here as pipeline/site/rank_files.py's bucket(): the CRC-32 of the id's
// UTF-8 modulo the count, in lower-case hex as wide as the largest bucket's. Script files, not
// fetch(): a page opened from disk (file://) may load a script but not fetch JSON. Without
// scripts, or for a player the file does not rank, the words written on the page stay.
"use strict";
(function () {
  var TABLE = [];  // CRC-32 (IEEE 802.3, zlib's): the reflected polynomial 0xEDB88320
  for (var n = 0; n < 256; n++) {
    var c = n;
    for (var k = 0; k < 8; k++) { c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1; }
    TABLE[n] = c >>> 0;
  }
  function crc32(text) {
    var bytes = new TextEncoder().encode(text);
    var crc = 0xFFFFFFFF;
    for (var i = 0; i < bytes.length; i++) { crc = TABLE[(crc ^ bytes[i]) & 0xFF] ^ (crc >>> 8); }
    return (crc ^ 0xFFFFFFFF) >>> 0;
  }
  function bucket(id, count) {
    var width = (count - 1).toString(16).length;
    var name = (crc32(id) % count).toString(16);
    while (name.length < width) { name = "0" + name; }
    return name;
  }
  function places() { return document.querySelectorAll("[data-rank-kind]"); }
  window.fiderateRanks = {
    bucket: bucket,
    buckets: function (count) {
      // Called by ranks/buckets.js: its own address gives the folder of the bucket files.
      var here = document.currentScript && document.currentScript.src;
      if (!here) return;
      var folder = here.slice(0, here.lastIndexOf("/") + 1);
      var asked = {};
      var found = places();
      for (var i = 0; i < found.length; i++) {
        var name = bucket(found[i].getAttribute("data-player"), count);
        if (asked[name]) continue;
        asked[name] = true;
        var script = document.createElement("script");
        script.src = folder + name + ".js";
        document.body.appendChild(script);
      }
    },
    add: function (found) {
      var all = places();
      for (var i = 0; i < all.length; i++) {
        var place = all[i];
        var kind = place.getAttribute("data-rank-kind");
        var player = found.ranks[place.getAttribute("data-player")];
        var ranks = player && player[kind];
        if (!ranks) continue;
        place.textContent = "World rank " + ranks[0] + ", national rank " + ranks[1] + " (" +
          place.getAttribute("data-federation") + ") on the " + found.lists[kind] + " list";
      }
    }
  };
})();
