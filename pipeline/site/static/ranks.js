// A profile's world and national ranks, from its bucket's rank file (ranks/BBB.js, which calls
// fiderateRanks.add). The ranks move for everyone every month, so they are not written on the
// profile (its bytes stay the same while the player does not play: docs/web.md); a script
// file, not fetch(): a page opened from disk (file://) may load a script but not fetch JSON.
// Without scripts, or for a player the file does not rank, the words written on the page stay.
"use strict";
window.fiderateRanks = {
  add: function (found) {
    var places = document.querySelectorAll("[data-rank-kind]");
    for (var i = 0; i < places.length; i++) {
      var place = places[i];
      var kind = place.getAttribute("data-rank-kind");
      var player = found.ranks[place.getAttribute("data-player")];
      var ranks = player && player[kind];
      if (!ranks) continue;
      place.textContent = "World rank " + ranks[0] + ", national rank " + ranks[1] + " (" +
        place.getAttribute("data-federation") + ") on the " + found.lists[kind] + " list";
    }
  }
};
