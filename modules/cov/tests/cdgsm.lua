-- Congress of Vienna: the card-driven solo method (Playbook 19, rules/cdgsm.lua). Each
-- test starts the method on its own (`options = {cdgsm = side}`: the rules' set-up enters
-- the state cdgsm_desk instead of the first turn), lays a side's display out by hand or
-- from the cards put in hand, and plays cards through the state cdgsm_play with physical
-- dice, so that each fate die result is chosen. The fate die's faces come from the test
-- fixture (placeholders: 1 "C or lowest-lettered", 2 "AB", 3 "DE", 4 "ABC", 5 "CDE",
-- 6 "all except C"). Zones are "cdgsm.<side>.<space>" (face up) and ".down" (face down).

local util = include("@lib/util.lua")
local play = include("tests/lib/play.lua")

local FIXTURE = "tests/owner-fixture.ron"

local FATE = { lowest = 1, AB = 2, DE = 3, ABC = 4, CDE = 5, all = 6 }

local function desk(t, side, scenario)
  return t:game { scenario = scenario or "napoleon-resurgent", overlay = FIXTURE, dice = "physical",
    options = { cdgsm = side } }
end

local function z(side, what)
  return "cdgsm." .. side .. "." .. what
end

-- Lays France's display out by hand: `spaces` maps a zone suffix ("A", "B.down", …) to a
-- card; `pile` lists the draw pile top first; `military` the Military pile, top first.
local function lay(g, spaces, pile, military)
  g:move_card("napoleon", z("FR", "beside"))
  for _, what in ipairs(util.sorted_keys(spaces)) do
    g:move_card(spaces[what], z("FR", what))
  end
  for _, card in ipairs(pile or {}) do
    g:move_card(card, z("FR", "C"), "bottom")
  end
  for _, card in ipairs(military or {}) do
    g:move_card(card, z("FR", "military"), "bottom")
  end
end

-- France plays a card to negotiate, the fate die showing `die` (nil: no die is rolled).
local function negotiate(g, die)
  g:act("play", { power = "FR", purpose = "negotiate" }, die and { die } or nil)
end

-- France negotiates, the fate die showing `die`: the cards offered to play are `offered`, in
-- order, and it plays `card`.
local function plays(t, g, die, offered, card)
  negotiate(g, die)
  local legal = {}
  for i, c in ipairs(offered) do
    legal[i] = "play " .. c
  end
  t:eq(g:legal(), legal)
  g:act("play", card)
end

-- France's display holds, zone by zone, the cards `layout` gives (a zone's suffix to its
-- cards, top first).
local function holds(t, g, layout)
  for _, what in ipairs(util.sorted_keys(layout)) do
    t:eq(g:zone(z("FR", what)), layout[what], what)
  end
end

local function sorted(list)
  local copy = util.copy(list)
  table.sort(copy)
  return copy
end

-- Every card in a side's display zones, sorted.
local function on_display(g, side)
  local list = {}
  for _, what in ipairs({ "A", "A.down", "B", "B.down", "D", "D.down", "E", "E.down", "C", "C.up", "military", "beside", "played" }) do
    for _, card in ipairs(g:zone(z(side, what))) do
      list[#list + 1] = card
    end
  end
  table.sort(list)
  return list
end

-- Rule: 19.2 (L1422-L1426). Set-up: France's hand is Napoleon and ten cards. Expected: Napoleon
-- beside the display; one card face up in A and in B, one face down in D and in E, the
-- other six face down in the draw pile; every card once, the hand empty.
test("19.2 cdgsm set-up: Leaders beside, A and B face up, D and E face down, the rest in C", function(t)
  local g = desk(t, "FR")
  local hand = { "ney", "murat", "davout", "soult", "caulaincourt", "gaudin", "berthier", "eugene", "fouche", "talleyrand" }
  for _, card in ipairs(hand) do
    g:move_card(card, "hand.FR")
  end
  g:act("lay_out")
  t:eq(g:zone(z("FR", "beside")), { "napoleon" })
  for space, counts in pairs({ A = { 1, 0 }, B = { 1, 0 }, D = { 0, 1 }, E = { 0, 1 } }) do
    t:eq(#g:zone(z("FR", space)), counts[1], "space " .. space .. " face up")
    t:eq(#g:zone(z("FR", space .. ".down")), counts[2], "space " .. space .. " face down")
  end
  t:eq(#g:zone(z("FR", "C")), 6, "the draw pile")
  t:eq(g:zone("hand.FR"), {})
  local all = util.copy(hand)
  all[#all + 1] = "napoleon"
  t:eq(on_display(g, "FR"), sorted(all))
  t:eq(#play.lines(g, "France's solo display is laid out (19.2): beside it Napoleon;"), 1)
  t:eq(#play.lines(g, "face up in space A"), 1, "the log names A's card")
  t:eq(#play.lines(g, "a card face down in space D"), 1, "the log does not name D's card")
end)

-- Rule: 19.2 (L1422) and the note on Kutuzov (L1440). Set-up: the Full Campaign, where
-- Russia starts with Kutuzov; the three Allied hands hold their Leaders and eight cards.
-- Expected: Alexander, Metternich, Castlereagh and Kutuzov beside the Coalition's display,
-- the eight cards in A, B, D, E and the draw pile.
test("19.2 cdgsm set-up: the Coalition's Leaders and Kutuzov beside its display", function(t)
  local g = desk(t, "allies", "full-campaign")
  local hands = { RU = { "humboldt", "stein", "yorck" }, AU = { "gentz", "stadion", "kolowrat" }, BR = { "graham", "eldon" } }
  for _, power in ipairs({ "RU", "AU", "BR" }) do
    for _, card in ipairs(hands[power]) do
      g:move_card(card, "hand." .. power)
    end
  end
  g:act("lay_out")
  t:eq(sorted(g:zone(z("allies", "beside"))), { "alexander", "castlereagh", "kutuzov", "metternich" })
  t:eq(#g:zone(z("allies", "A")) + #g:zone(z("allies", "B")), 2, "A and B face up")
  t:eq(#g:zone(z("allies", "D.down")) + #g:zone(z("allies", "E.down")), 2, "D and E face down")
  t:eq(#g:zone(z("allies", "C")), 4, "the draw pile")
  t:eq(#g:zone("hand.RU") + #g:zone("hand.AU") + #g:zone("hand.BR"), 0, "the hands are empty")
end)

-- Rule: 19.2, after the Wager (L1428), with 19.1 (L1412). Set-up: France's display laid out;
-- then France receives Eugène (French military), Guard Corps (neutral military), Radetzky
-- (Austrian military), Wittgenstein (Russian military) and Gaudin (not military). Expected:
-- Eugène and Guard Corps to the Military pile; the other three shuffled into the draw pile.
test("19.2 cdgsm after the Wager: PUMC to the Military pile, the others into the draw pile", function(t)
  local g = desk(t, "FR")
  for _, card in ipairs({ "ney", "murat", "davout", "soult", "caulaincourt", "fouche" }) do
    g:move_card(card, "hand.FR")
  end
  g:act("lay_out")
  t:eq(#g:zone(z("FR", "C")), 2)
  for _, card in ipairs({ "eugene", "guard_corps", "radetzky", "wittgenstein", "gaudin" }) do
    g:move_card(card, "hand.FR")
  end
  g:act("receive")
  t:eq(sorted(g:zone(z("FR", "military"))), { "eugene", "guard_corps" })
  t:eq(#g:zone(z("FR", "C")), 5, "two dealt and three received")
  for _, card in ipairs({ "radetzky", "wittgenstein", "gaudin" }) do
    t:ok(util.contains(g:zone(z("FR", "C")), card), card .. " is in the draw pile")
  end
  t:eq(g:zone("hand.FR"), {})
end)

-- The Coalition receives Reuss-Plauen (Austrian), Bernadotte (Russian), Hill (British), the
-- neutral Austrian Grenadier Defense and Eugène (French), all military.
local function allied_receive(t, scenario)
  local g = desk(t, "allies", scenario)
  for _, card in ipairs({ "humboldt", "stein", "gentz", "graham", "eldon" }) do
    g:move_card(card, "hand.RU")
  end
  g:act("lay_out")
  for _, card in ipairs({ "reuss_plauen", "bernadotte", "hill", "grenadier_defense", "eugene" }) do
    g:move_card(card, "hand.AU")
  end
  g:act("receive")
  return g
end

-- Rule: 19.1 (L1412-L1416): Austrian military cards are not PUMC before the Armistice; in the
-- Armistice, with Austria at War still to be negotiated, they are. Set-up: the Napoleon
-- Resurgent (Limited War), then the Clash of Armies (Armistice, Austria at War on the
-- Diplomacy Display). Expected: Reuss-Plauen joins the Coalition's Military pile only in the
-- second; the French Eugène never does.
test("19.1 cdgsm PUMC: Austrian military cards wait for the Armistice with Austria at War open", function(t)
  local limited = allied_receive(t, "napoleon-resurgent")
  t:eq(sorted(limited:zone(z("allies", "military"))), { "bernadotte", "grenadier_defense", "hill" })
  t:ok(util.contains(limited:zone(z("allies", "C")), "reuss_plauen"), "Reuss-Plauen goes to the draw pile")
  t:ok(util.contains(limited:zone(z("allies", "C")), "eugene"), "Eugène goes to the draw pile")
  local armistice = allied_receive(t, "clash-of-armies")
  t:eq(armistice:space_of("issue.austria_at_war"), "diplomacy", "Austria at War is on the Diplomacy Display")
  t:eq(sorted(armistice:zone(z("allies", "military"))), { "bernadotte", "grenadier_defense", "hill", "reuss_plauen" })
end)

-- Rule: 19.1, a reading (RULES-GAPS.md): a card whose military flag or nation is not
-- entered is not a PUMC. Set-up: no overlay; France receives Radetzky (military, nation not
-- entered), Stadion (military not entered) and Guard Corps (neutral military). Expected:
-- only Guard Corps is saved.
test("19.1 cdgsm PUMC: a card whose nation or military flag is not entered is not one", function(t)
  local g = t:game { scenario = "napoleon-resurgent", options = { cdgsm = "FR" } }
  for _, card in ipairs({ "ney", "murat", "davout", "soult", "caulaincourt" }) do
    g:move_card(card, "hand.FR")
  end
  g:act("lay_out")
  for _, card in ipairs({ "radetzky", "stadion", "guard_corps" }) do
    g:move_card(card, "hand.FR")
  end
  g:act("receive")
  t:eq(g:zone(z("FR", "military")), { "guard_corps" })
end)

-- Rule: 19.3 (L1432-L1438) and the Playbook's example (L1470-L1484): France's display in the
-- 3rd round, Gaudin face up in D, Eugène in the Military pile, Napoleon beside; A and B lie
-- face down. Expected, step by step: the fate die shows "AB"; A and B turn up a neutral
-- military card (Guard Corps, #63) and Von Humboldt; only Guard Corps may be saved, and is;
-- only Von Humboldt may be played (not Gaudin); it is played; A and B are filled face down
-- with the draw pile's first and second cards. Both French bots, 18.4's and section 21's,
-- save Guard Corps and play Von Humboldt.
test("19.5 cdgsm example: AB, the neutral military card saved, Von Humboldt played", function(t)
  local g = desk(t, "FR")
  lay(g, { ["A.down"] = "guard_corps", ["B.down"] = "humboldt", D = "gaudin", ["E.down"] = "soult" },
    { "murat", "davout", "caulaincourt", "fouche" }, { "eugene" })
  negotiate(g, FATE.AB)
  t:eq(g:state(), "cdgsm_play")
  t:eq(g:zone(z("FR", "A")), { "guard_corps" }, "A turned up")
  t:eq(g:zone(z("FR", "B")), { "humboldt" }, "B turned up")
  t:eq(#g:zone(z("FR", "A.down")) + #g:zone(z("FR", "B.down")), 0)
  t:ok(string.find(g:prompt().text, "19.3, step 3", 1, true), "the prompt names step 3")
  t:eq(g:legal(), { "save guard_corps", "save_none" })
  local choice, reasons = g:bot_choice("lutzen_france", "FR")
  t:eq(choice, "save guard_corps", "the French bot saves it too: " .. table.concat(reasons or {}, " "))
  choice, reasons = g:bot_choice("french_bot", "FR")
  t:eq(choice, "save guard_corps", "and section 21's French bot: " .. table.concat(reasons or {}, " "))
  g:act("save", "guard_corps")
  t:eq(g:zone(z("FR", "military")), { "guard_corps", "eugene" })
  t:ok(string.find(g:prompt().text, "19.3, step 4", 1, true), "the prompt names step 4")
  t:eq(g:legal(), { "play humboldt" })
  t:eq(g:bot_choice("lutzen_france", "FR"), "play humboldt")
  t:eq(g:bot_choice("french_bot", "FR"), "play humboldt")
  g:act("play", "humboldt")
  t:eq(g:state(), "cdgsm_desk")
  t:eq(g:zone("discard"), { "humboldt" })
  t:eq(g:zone(z("FR", "A.down")), { "murat" }, "A refilled face down with the draw pile's top card")
  t:eq(g:zone(z("FR", "B.down")), { "davout" }, "B refilled face down with the next one")
  t:eq(#g:zone(z("FR", "A")) + #g:zone(z("FR", "B")), 0, "nothing face up in A and B")
  t:eq(g:zone(z("FR", "C")), { "caulaincourt", "fouche" })
  t:eq(g:zone(z("FR", "D")), { "gaudin" }, "Gaudin stays face up in D")
  t:eq(g:zone(z("FR", "E.down")), { "soult" })
  t:eq(g:zone(z("FR", "beside")), { "napoleon" })
  t:eq(#play.lines(g, "France plays Von Humboldt (space B) to negotiate"), 1)
  t:eq(#play.lines(g, "France saves Guard Corps (space A) to the Military pile"), 1)
end)

-- Rule: 19.3, "D and E" (L1447). Set-up: Soult and Davout face up in A and B, Gaudin and
-- Oudinot face down in D and E; no military card. Expected: D and E turn up, no save is
-- offered (no PUMC), Gaudin or Oudinot may be played; after Oudinot, E is refilled face
-- down and Gaudin stays face up.
test("19.3 cdgsm DE: D and E turned up, one of them played", function(t)
  local g = desk(t, "FR")
  lay(g, { A = "soult", B = "davout", ["D.down"] = "gaudin", ["E.down"] = "oudinot" }, { "caulaincourt", "fouche" })
  plays(t, g, FATE.DE, { "gaudin", "oudinot" }, "oudinot")
  holds(t, g, { D = { "gaudin" }, ["E.down"] = { "caulaincourt" }, C = { "fouche" } })
  t:eq(g:zone("discard"), { "oudinot" })
end)

-- Rule: 19.3, "A, B, and C" (L1448) and step 5 (L1438, "keep them face up/down as is"). Set-up:
-- Gambier face up in A, Gentz face down in B, Caulaincourt on top of the draw pile.
-- Expected: B and the draw pile's top card turn up; Gambier, Gentz and Caulaincourt may be
-- played; after Gentz, B is filled with the turned-up Caulaincourt, still face up.
test("19.3 cdgsm ABC: the draw pile's top card turned up, and kept face up when it fills a space", function(t)
  local g = desk(t, "FR")
  lay(g, { A = "gambier", ["B.down"] = "gentz", ["D.down"] = "soult", ["E.down"] = "davout" }, { "caulaincourt", "fouche" })
  negotiate(g, FATE.ABC)
  t:eq(g:zone(z("FR", "C.up")), { "caulaincourt" })
  t:eq(g:legal(), { "play gambier", "play gentz", "play caulaincourt" })
  g:act("play", "gentz")
  t:eq(g:zone(z("FR", "B")), { "caulaincourt" }, "B holds Caulaincourt face up")
  t:eq(g:zone(z("FR", "C.up")), {})
  t:eq(g:zone(z("FR", "C")), { "fouche" })
  t:eq(g:zone(z("FR", "A")), { "gambier" })
end)

-- Rule: 19.3, "C, D, and E" (L1449). Set-up: D and E face down, Caulaincourt on the draw
-- pile. Expected: C, D and E are available; playing C leaves every space filled, D and E
-- face up, and the card comes from "the draw pile, C".
test("19.3 cdgsm CDE: the draw pile's top card played", function(t)
  local g = desk(t, "FR")
  lay(g, { A = "soult", B = "davout", ["D.down"] = "gaudin", ["E.down"] = "oudinot" }, { "caulaincourt", "fouche" })
  plays(t, g, FATE.CDE, { "gaudin", "oudinot", "caulaincourt" }, "caulaincourt")
  t:eq(g:zone("discard"), { "caulaincourt" })
  holds(t, g, { D = { "gaudin" }, E = { "oudinot" }, C = { "fouche" } })
  t:eq(#play.lines(g, "France plays Caulaincourt (the draw pile, C) to negotiate"), 1)
end)

-- Rule: 19.3, "Every card except C" (L1450) and step 3 (L1436). Set-up: all four spaces face
-- down, Murat (French military) in D. Expected: the four turn up; Murat may be saved; with
-- none saved, any of the four may be played, not the draw pile's; the played card's space
-- is refilled face down.
test("19.3 cdgsm all except C: A, B, D, E turned up, a PUMC may be saved", function(t)
  local g = desk(t, "FR")
  lay(g, { ["A.down"] = "soult", ["B.down"] = "davout", ["D.down"] = "murat", ["E.down"] = "oudinot" }, { "caulaincourt", "fouche" })
  negotiate(g, FATE.all)
  t:eq(g:legal(), { "save murat", "save_none" })
  g:act("save_none")
  t:eq(g:legal(), { "play soult", "play davout", "play murat", "play oudinot" })
  g:act("play", "soult")
  t:eq(g:zone(z("FR", "A.down")), { "caulaincourt" })
  t:eq(g:zone(z("FR", "D")), { "murat" }, "Murat stays face up")
  t:eq(g:zone(z("FR", "military")), {})
end)

-- Rule: 19.3, "C or lowest-lettered card" (L1445) and the note on letters (L1440). Set-up:
-- Gentz (French letter D) face up in A, Gambier (C) in B, Wittgenstein (B) in D, Oudinot
-- face down in E, Caulaincourt on the draw pile. Expected: the draw pile's top card and
-- Gentz are offered, not Gambier, Wittgenstein nor the face-down Oudinot; after Gentz, A is
-- filled with the turned-up Caulaincourt, still face up.
test("19.3 cdgsm C or lowest-lettered: C or the lowest French letter", function(t)
  local g = desk(t, "FR")
  lay(g, { A = "gentz", B = "gambier", D = "wittgenstein", ["E.down"] = "oudinot" }, { "caulaincourt", "fouche" })
  plays(t, g, FATE.lowest, { "caulaincourt", "gentz" }, "gentz")
  holds(t, g, { A = { "caulaincourt" }, ["E.down"] = { "oudinot" }, C = { "fouche" } })
end)

-- Rule: 19.3, "C or lowest-lettered card" (L1445) on the Coalition's display: the letter
-- read is the active power's (the note, L1440), and a tie is the player's choice. Set-up
-- (the fixture's placeholder letters, Austrian / British): Graham (A / D) face up in A,
-- Baron Eldon (D / A) in B, Yorck (D / C) in D, Stein on the draw pile. Expected: Austria
-- is offered Stein, Baron Eldon and Yorck (tied); Britain, Stein or Graham.
local function allied_lowest(t, power)
  local g = desk(t, "allies")
  g:move_card("graham", z("allies", "A"))
  g:move_card("eldon", z("allies", "B"))
  g:move_card("yorck", z("allies", "D"))
  g:move_card("humboldt", z("allies", "E.down"))
  g:move_card("stein", z("allies", "C"))
  g:move_card("gentz", z("allies", "C"), "bottom")
  g:act("play", { power = power, purpose = "negotiate" }, { FATE.lowest })
  return g:legal()
end

test("19.3 cdgsm C or lowest-lettered on the Coalition's display: the active power's letter, ties", function(t)
  t:eq(allied_lowest(t, "AU"), { "play stein", "play eldon", "play yorck" })
  t:eq(allied_lowest(t, "BR"), { "play stein", "play graham" })
end)

-- Rule: 19.3, "C or lowest-lettered card", "if none" (L1445). Set-up: all four spaces face
-- down. Expected: only the turned-up top card of the draw pile may be played.
test("19.3 cdgsm C or lowest-lettered: with no face-up card, the draw pile's top card", function(t)
  local g = desk(t, "FR")
  lay(g, { ["A.down"] = "gentz", ["B.down"] = "gambier", ["D.down"] = "soult", ["E.down"] = "davout" }, { "caulaincourt", "fouche" })
  plays(t, g, FATE.lowest, { "caulaincourt" }, "caulaincourt")
  t:eq(g:zone(z("FR", "A.down")), { "gentz" }, "nothing turned up")
  t:eq(g:zone(z("FR", "C")), { "fouche" })
end)

-- Rule: 19.3, step 3 (L1436), a reading: no save that would leave the result nothing to play;
-- step 5 fills every open space. Set-up: Guard Corps face down in A, B open, two cards in the
-- draw pile. Expected: "AB" offers no save and only Guard Corps to play; then A and B are
-- both filled face down.
test("19.3 cdgsm step 3: no save of the only card left to play; step 5 fills every open space", function(t)
  local g = desk(t, "FR")
  lay(g, { ["A.down"] = "guard_corps", D = "soult", E = "davout" }, { "caulaincourt", "fouche", "talleyrand" })
  plays(t, g, FATE.AB, { "guard_corps" }, "guard_corps")
  holds(t, g, { ["A.down"] = { "caulaincourt" }, ["B.down"] = { "fouche" }, military = {} })
end)

-- Rule: 19.3 (L1432): the fate die's faces are owner data (the Playbook leaves them blank).
-- Set-up: no overlay. Expected: the play is refused, asking for the face rolled; nothing is
-- turned up.
test("19.3 cdgsm the fate die's faces are owner data, asked when not entered", function(t)
  local g = t:game { scenario = "napoleon-resurgent", dice = "physical", options = { cdgsm = "FR" } }
  for _, card in ipairs({ "ney", "murat", "davout", "soult", "caulaincourt", "fouche" }) do
    g:move_card(card, "hand.FR")
  end
  g:act("lay_out")
  local ok, why = g:try("play", { power = "FR", purpose = "negotiate" }, { 2 })
  t:eq(ok, false)
  t:ok(string.find(why, "table 'cdgsm_fate': entry '2' is not entered yet", 1, true), why)
  t:eq(#g:zone(z("FR", "D.down")), 1, "D still face down")
  t:eq(g:state(), "cdgsm_desk")
end)

-- Rule: 19.4 (L1454-L1458). Set-up: France's draw pile empty, Eugène and Murat in the
-- Military pile, Soult face up in A, Gentz, Guard Corps and Oudinot face down. Expected: no
-- fate die is rolled; the two military cards become the draw pile; all four display cards
-- turn up and may be played; Guard Corps (a PUMC) may not be saved; after it is played, D
-- is filled face up; the next play rolls no die either.
test("19.4 cdgsm the draw pile is empty: the Military pile becomes it, every card open", function(t)
  local g = desk(t, "FR")
  lay(g, { A = "soult", ["B.down"] = "gentz", ["D.down"] = "guard_corps", ["E.down"] = "oudinot" }, {}, { "eugene", "murat" })
  negotiate(g, nil)
  t:eq(sorted(g:zone(z("FR", "C"))), { "eugene", "murat" })
  t:eq(g:zone(z("FR", "military")), {})
  t:eq(g:vars().cdgsm.FR.transferred, true)
  t:eq(g:legal(), { "play soult", "play gentz", "play guard_corps", "play oudinot" })
  t:eq(#play.lines(g, "rolls the fate die"), 0)
  g:act("play", "guard_corps")
  t:eq(#g:zone(z("FR", "D")), 1, "D filled face up")
  t:eq(#g:zone(z("FR", "D.down")), 0)
  t:eq(#g:zone(z("FR", "C")), 1)
  negotiate(g, nil)
  t:eq(#g:legal(), 4, "every display card again")
  t:eq(#play.lines(g, "rolls the fate die"), 0)
end)

-- Rule: 19.4 (L1454, L1458) when the refill of step 5 empties the draw pile. Set-up: one
-- card (Caulaincourt) in the draw pile, Eugène in the Military pile; "AB" with Guard Corps
-- and Soult. Expected: Guard Corps is saved, Soult played; A takes Caulaincourt face down;
-- then the draw pile is empty: the Military pile (Eugène, Guard Corps) becomes it, the
-- display turns face up (Caulaincourt in A, Oudinot in E), and B is filled face up.
test("19.4 cdgsm the draw pile runs out while open spaces are filled", function(t)
  local g = desk(t, "FR")
  lay(g, { ["A.down"] = "guard_corps", ["B.down"] = "soult", D = "gaudin", ["E.down"] = "oudinot" }, { "caulaincourt" }, { "eugene" })
  negotiate(g, FATE.AB)
  g:act("save", "guard_corps")
  g:act("play", "soult")
  t:eq(g:zone(z("FR", "A")), { "caulaincourt" })
  t:eq(g:zone(z("FR", "E")), { "oudinot" })
  t:eq(#g:zone(z("FR", "B")), 1, "B filled face up")
  t:eq(sorted({ g:zone(z("FR", "B"))[1], g:zone(z("FR", "C"))[1] }), { "eugene", "guard_corps" })
  t:eq(g:zone(z("FR", "military")), {})
  t:eq(g:vars().cdgsm.FR.transferred, true)
  for _, space in ipairs({ "A", "B", "D", "E" }) do
    t:eq(#g:zone(z("FR", space .. ".down")), 0, "space " .. space .. " face up")
  end
end)

-- Rule: 19.5 (L1462). Set-up: Eugène in the Military pile, Gaudin face up in A, Murat face
-- down in B, Radetzky (Austrian: not France's) face up in D, Guard Corps face down in E,
-- Berthier and Soult in the draw pile, Napoleon beside. Expected at the end of the phase:
-- Eugène, Murat, Guard Corps and Berthier; not Gaudin, Radetzky, Soult nor Napoleon.
test("19.5 cdgsm the War Phase's cards: PUMC of the Military pile, the display and the draw pile", function(t)
  local g = desk(t, "FR")
  lay(g, { A = "gaudin", ["B.down"] = "murat", D = "radetzky", ["E.down"] = "guard_corps" }, { "berthier", "soult" }, { "eugene" })
  g:act("war")
  t:eq(g:vars().cdgsm.FR.war_cards, { "eugene", "murat", "guard_corps", "berthier" })
  t:eq(#play.lines(g, "France's military cards for the War Phase (19.5): Eugène de Beauharnais, Murat, Guard Corps, Berthier."), 1)
end)

-- Rule: the two displays of 19.2 (L1420). Set-up: the desk option with "RU". Expected: the
-- game is refused, the message naming the two sides.
test("19.2 cdgsm a solo display side is FR or allies", function(t)
  t:fails(function()
    t:game { scenario = "napoleon-resurgent", options = { cdgsm = "RU" } }
  end, "option 'cdgsm' takes FR or allies, not 'RU'")
end)
