-- Congress of Vienna: the Playbook's example of play (section 16: The Clash of Armies,
-- August 1813, Initial Situation card A-5), replayed move by move through the Initial and
-- Diplomacy Phases, checking what the Playbook states after each step. The numbers the
-- Playbook prints come from its text (Lnnn: lines of the Playbook); values it does not
-- print come from the test fixture (tests/owner-fixture.ron, whose header lists them).
-- The hands are those the narrative plays: the Playbook shows the opening hands only in
-- its figures, so each power is given the cards the text has it play, trade or discard.

local util = include("@lib/util.lua")

local FIXTURE = "tests/owner-fixture.ron"

local HANDS = {
  AU = { "metternich", "kaiser_franz", "kolowrat", "davout", "talleyrand", "wellington", "bellegarde",
    "trauttmansdorff", "andrew_jackson", "sherbrooke", "bernadotte", "nesselrode", "schwarzenberg", "radetzky" },
  RU = { "alexander", "friedrich_wilhelm_iii", "soult", "poniatowski", "merveldt", "oudinot", "humboldt", "gentz",
    "marmont", "event_61", "guard_corps", "cossacks", "wittgenstein" },
  BR = { "castlereagh", "huskisson", "caulaincourt", "klenau", "eldon", "bexley", "hardenberg", "blucher", "hill",
    "morillo" },
  FR = { "napoleon", "gaudin", "stadion", "reuss_plauen", "friedrich_august", "fouche", "yorck", "graham", "bulow",
    "ney", "stein", "arakcheyev", "berthier", "murat", "river_crossing" },
}

-- Puts every power's hand as the narrative has it (the rest of its dealt cards back in the
-- deck), by hand, as players would at a table.
local function deal_the_narrative(g)
  for power in pairs(HANDS) do
    for _, card in ipairs(g:zone("hand." .. power)) do
      g:move_card(card, "deck")
    end
  end
  for power, cards in pairs(HANDS) do
    for _, card in ipairs(cards) do
      g:move_card(card, "hand." .. power)
    end
  end
end

local function where(g, piece)
  local _, space = g:space_of(piece)
  return space
end

-- The Initial Phase (16.1), with physical dice: the rolls 3 and 2 are modified by A-5's
-- +1 each to 4 and 3.
local function initial_phase(t)
  local g = t:game { scenario = "clash-of-armies", overlay = FIXTURE, dice = "physical", seed = 5 }
  g:act("begin", nil, { 3, 2 })
  return g
end

-- Rule: 16.1. Expected (L111-L121): column 4 (Austria takes a national character card,
-- 4 US Militia, no US Military Operation), row 3 (no effect); Britain keeps its fleets;
-- Austria at War on the Negotiation Table for 1 VP (20 -> 21).
test("16.1 the Initial Phase of August 1813", function(t)
  local g = initial_phase(t)
  t:eq(g:zone("situation.current"), { "a_5" })
  t:ok(util.contains(g:zone("hand.RU"), "friedrich_wilhelm_iii"), "A-5 gives Russia King Friedrich Wilhelm III")
  t:ok(util.contains(g:zone("hand.AU"), "kolowrat"), "A-5 gives Austria Kolowrat")
  t:ok(util.contains(g:zone("hand.BR"), "huskisson"), "A-5 gives Britain Huskisson")
  t:ok(util.contains(g:zone("hand.FR"), "gaudin"), "A-5 gives France Gaudin")
  t:eq(g:units("war_of_1812", "US_militia"), 4, "column 4: 4 US Militia")
  t:eq(where(g, "issue.mil_op_us"), "display", "column 4: no US Military Operation (it stays on the display)")
  t:eq(g:counter("resources.BR"), 0, "row 3, column 4: no effect on the maritime struggle")
  t:eq(g:prompt().seat, "AU", "column 4 picks Austria")
  g:act("take", "kaiser_franz")
  t:ok(util.contains(g:zone("hand.AU"), "kaiser_franz"), "Austria took Kaiser Franz (L180)")
  g:act("keep")
  t:eq(g:state(), "clash")
  g:act("table")
  t:eq(where(g, "issue.austria_at_war"), "table")
  t:eq(g:counter("vp.AU"), 21, "Austria at War on the Table: +1 VP (L121)")
  t:eq(g:state(), "wager")
end)

-- Rule: 16.1, the extra card: only the picked power's national character cards are
-- offered; a card whose nation is not entered is offered too, and refused with the reason
-- once its nation is known to be another.
test("16.1 the Environment Table's extra card is one of the power's own", function(t)
  local g = initial_phase(t)
  local ok = g:try("take", "davout")
  t:eq(ok, false, "Davout (French) is not offered to Austria")
  t:ok(util.contains(g:legal(), "take kaiser_franz"))
  t:ok(not util.contains(g:legal(), "take wellington"), "a British card is not offered")
  t:eq(#g:zone("hand.AU"), 2, "nothing was taken")
end)

-- Rule: 16.2, the whole Diplomacy Phase of the example. Expected: every position the
-- Playbook narrates, and the end: Russia and Austria tie with four issues each, Britain
-- gives the phase to Austria, 2 VP (L415-L417).
test("16.2 the Diplomacy Phase of August 1813", { instructions = 400000000, seconds = 20 }, function(t)
  local g = initial_phase(t)
  g:act("take", "kaiser_franz")
  g:act("keep")
  g:act("table")
  deal_the_narrative(g)

  -- The Wager (L229-L243): DAVOUT 5 against STADION, CAULAINCOURT and SOULT, 4 each.
  g:act_as("AU", "wager", "davout")
  g:act_as("FR", "wager", "stadion")
  g:act_as("BR", "wager", "caulaincourt")
  g:act_as("RU", "wager", "soult")
  local discarded = g:zone("discard")
  table.sort(discarded)
  t:eq(discarded, { "caulaincourt", "davout", "soult", "stadion" }, "wagered cards are discarded")
  -- Austria wins by 1 and puts Liberalism/Absolutism on Austria 1 (L243).
  t:eq(g:prompt().seat, "AU")
  g:act("place", "issue.lib_abs")
  t:eq(where(g, "issue.lib_abs"), "AU-1")

  -- Issue selection, clockwise from Austria's left: France, Russia, Britain, Austria (L258).
  local order = {}
  for _, pick in ipairs({
    { "FR", "issue.saxony" }, { "FR", "issue.italy" }, { "RU", "issue.mil_op_ru" }, { "RU", "issue.poland" },
    { "BR", "issue.mil_op_br.1" }, { "BR", "issue.recruit_br" }, { "AU", "issue.peace_congress" },
    { "AU", "issue.future_government" },
  }) do
    order[#order + 1] = g:prompt().seat
    g:act("select", pick[2])
    t:eq(where(g, pick[2]), "table")
  end
  t:eq(order, { "FR", "FR", "RU", "RU", "BR", "BR", "AU", "AU" })

  -- Round 1 (L262-L272).
  t:eq(g:prompt().seat, "FR", "France, on Austria's left, begins every round (L245)")
  g:act("trade", "AU")
  g:act_as("FR", "offer", "reuss_plauen")
  g:act_as("AU", "give", "andrew_jackson")
  t:ok(util.contains(g:zone("hand.FR"), "andrew_jackson"), "France received Andrew Jackson")
  t:ok(util.contains(g:zone("hand.AU"), "reuss_plauen"), "Austria received Reuss-Plauen")
  t:eq(#g:zone("hand.FR"), 14)
  g:act("negotiate", "poniatowski")
  g:act("on", "issue.poland")
  t:eq(where(g, "issue.poland"), "RU-5", "Poniatowski: 3 and +2 on Poland for every player")
  t:eq(g:prompt().state, "preempt", "France, last in the order, may pre-empt before the others are asked")
  g:act_as("FR", "pass")
  g:act_as("BR", "pass")
  g:act_as("AU", "debate", "schwarzenberg")
  g:act_as("FR", "pass") -- France may pre-empt a declared debate; it does not.
  t:eq(where(g, "issue.poland"), "table", "Austria's 3-rank card worth 5 shifts it back to the centre (L266)")
  g:act("trade", "AU")
  g:act_as("BR", "offer", "klenau")
  g:act_as("AU", "give", "sherbrooke")
  t:ok(util.contains(g:zone("hand.BR"), "sherbrooke"), "Britain received Sherbrooke")
  t:ok(util.contains(g:zone("hand.AU"), "klenau"), "Austria received Von Klenau")
  g:act("negotiate", "trauttmansdorff")
  g:act("on", "issue.austria_at_war")
  t:eq(where(g, "issue.austria_at_war"), "AU-6", "Trauttmansdorff: 4 and +2 on Austria at War (L272)")
  t:eq(g:counter("vp.AU"), 22, "Trauttmansdorff on Austria at War: +1 VP, Austria 22")
  g:act_as("FR", "debate", "fouche")
  t:eq(where(g, "issue.austria_at_war"), "AU-2", "France debates it back to Austria 2 (L272)")

  -- Round 2 (L286-L294).
  g:act("negotiate", "friedrich_august")
  g:act("on", "issue.saxony")
  t:eq(where(g, "issue.saxony"), "FR-6", "Friedrich August counts 6 for Saxony in the French hand (L286)")
  for _, seat in ipairs({ "RU", "BR", "AU" }) do
    g:act_as(seat, "pass")
  end
  g:act("trade", "AU")
  g:act_as("RU", "offer", "merveldt")
  g:act_as("AU", "give", "bernadotte")
  g:act("negotiate", "huskisson")
  g:act("on", "issue.lib_abs")
  t:eq(where(g, "issue.lib_abs"), "BR-4", "Huskisson, 5 on Liberalism/Absolutism: Austria 1 to Britain 4 (L290)")
  g:act_as("FR", "pass") -- the pre-empt offer
  g:act_as("AU", "debate", "kaiser_franz")
  g:act_as("FR", "pass") -- the offer to pre-empt Austria's declared debate
  t:eq(where(g, "issue.lib_abs"), "AU-3", "Kaiser Franz 5 + 1 + 1 Austrian advantage = 7: back to Austria 3")
  g:act("negotiate", "talleyrand")
  g:act("on", "issue.lib_abs")
  -- The Playbook moves it "7 spaces from Austria-2 to theoretically 9" (L294), but the
  -- previous debate left it on Austria 3 (L290: "back to Austria -3"), so 3 + 7 = 10.
  t:eq(g:vars().diplomacy.beyond.n, 10, "Talleyrand: 7 spaces from Austria 3, 10 beyond the Seat")
  for _, seat in ipairs({ "FR", "RU", "BR" }) do
    g:act_as(seat, "pass")
  end
  t:eq(where(g, "issue.lib_abs"), "AU-7")
  t:eq(g:vars().secured["issue.lib_abs"], true, "no debate: secured on Austria's Seat")

  -- Round 3 (L300-L308).
  g:act("negotiate", "gaudin")
  g:act("on", "issue.italy")
  t:eq(where(g, "issue.italy"), "FR-5", "Gaudin 3 + 2 on Italy (L300)")
  t:eq(g:counter("resources.FR"), 1, "Gaudin on Italy: an additional Resource for France")
  for _, seat in ipairs({ "RU", "BR", "AU" }) do
    g:act_as(seat, "pass")
  end
  g:act("negotiate", "oudinot")
  g:act("on", "issue.poland")
  t:eq(where(g, "issue.poland"), "RU-2")
  g:act_as("FR", "pass")
  g:act_as("BR", "pass")
  g:act_as("AU", "debate", "kolowrat")
  g:act_as("FR", "pass")
  t:eq(where(g, "issue.poland"), "AU-1", "Austria debates Poland to Austria 1 with Kolowrat (L304)")
  g:act("negotiate", "eldon")
  g:act("on", "issue.mil_op_br.1")
  t:eq(where(g, "issue.mil_op_br.1"), "BR-4", "Eldon: the British Military Operation to Britain 4 (L306)")
  t:eq(g:counter("resources.BR"), 1, "Eldon on the British Military Operation: an additional Resource")
  g:act_as("FR", "pass") -- the pre-empt offer
  for _, seat in ipairs({ "AU", "FR", "RU" }) do
    g:act_as(seat, "pass")
  end
  g:act("negotiate", "nesselrode")
  g:act("on", "issue.future_government")
  t:eq(where(g, "issue.future_government"), "AU-4")
  for _, seat in ipairs({ "FR", "RU", "BR" }) do
    g:act_as(seat, "pass")
  end

  -- Round 4 (L316-L329).
  g:act("negotiate", "yorck")
  g:act("on", "issue.austria_at_war")
  t:eq(where(g, "issue.austria_at_war"), "table", "Yorck: Austria 2 to the Negotiation Table (L316)")
  g:act_as("RU", "debate", "humboldt")
  t:eq(where(g, "issue.austria_at_war"), "RU-5", "Von Humboldt 2 + 3 on Austria at War: Russia 5 (L316)")
  g:act("leader", "alexander")
  g:act("on", "issue.mil_op_ru")
  g:act("discard", "gentz")
  for _, seat in ipairs({ "BR", "AU", "FR" }) do
    g:act_as(seat, "pass")
  end
  t:eq(where(g, "issue.mil_op_ru"), "RU-7", "Alexander: the Russian Military Operation to Russia's Seat (L320)")
  t:eq(g:vars().secured["issue.mil_op_ru"], true)
  t:eq(g:zone("discard")[1], "gentz")
  g:act("negotiate", "bexley")
  g:act("on", "issue.recruit_br", { 5 })
  t:eq(where(g, "issue.recruit_br"), "BR-3")
  t:eq(g:counter("resources.BR"), 1, "Bexley: the die shows 5, no Resource (L323)")
  g:act_as("FR", "pass") -- the pre-empt offer: France debates in its turn instead
  g:act_as("AU", "pass")
  g:act_as("FR", "debate", "graham")
  t:eq(where(g, "issue.recruit_br"), "FR-1", "Graham 3 + 1 for an issue on the British track: France 1 (L325)")
  -- The Playbook never says how Generalissimo reached the Negotiation Table: it is not among
  -- the selected issues (L249-L255) nor A-5's (L143-L147). It is put there by hand.
  g:place("issue.generalissimo", "diplomacy", "table")
  g:act("leader", "metternich")
  g:act("on", "issue.generalissimo")
  g:act("discard", "klenau")
  for _, seat in ipairs({ "FR", "BR" }) do
    g:act_as(seat, "pass")
  end
  t:eq(where(g, "issue.generalissimo"), "AU-7", "Metternich secures Generalissimo (L329)")

  -- Round 5 (L352-L386).
  g:act("negotiate", "bulow")
  g:act("on", "issue.poland")
  t:eq(where(g, "issue.poland"), "FR-2")
  g:act_as("RU", "pass")
  g:act_as("BR", "debate", "hardenberg")
  t:eq(where(g, "issue.poland"), "BR-1", "Von Hardenberg 4 - 1 for the French track: Britain 1 (L364)")
  g:act("negotiate", "marmont")
  g:act("on", "issue.recruit_fr")
  t:eq(where(g, "issue.recruit_fr"), "RU-2")
  g:act_as("FR", "preempt", "ney")
  t:eq(where(g, "issue.recruit_fr"), "FR-3", "France pre-empts with Ney, bringing it to its track (L378)")
  t:eq(g:vars().diplomacy.preempts, 1)
  local _, used = g:space_of("marker.fr_preempts")
  t:eq(used, "1", "the French Pre-Empts track advances")
  g:act("negotiate", "blucher")
  g:act("on", "issue.recruit_fr")
  t:eq(where(g, "issue.recruit_fr"), "BR-1", "Blücher 5 - 1 for the French track")
  g:act_as("FR", "pass") -- the pre-empt offer
  g:act_as("AU", "debate", "merveldt")
  g:act_as("FR", "pass") -- France does not pre-empt a second time (L384)
  t:eq(where(g, "issue.recruit_fr"), "AU-3", "Austria debates with Merveldt: Austria 3 (L384)")
  t:ok(util.contains(g:legal(), "pass"), "Austria debated this round: it may pass")
  g:act("pass")

  -- Round 6 (L392-L404).
  g:act("negotiate", "stein")
  g:act("on", "issue.fin_aid_br.1")
  t:eq(where(g, "issue.fin_aid_br.1"), "FR-1", "Stein: Austria 2 to France 1 (L392)")
  g:act_as("RU", "debate", "event_61")
  t:eq(where(g, "issue.fin_aid_br.1"), "RU-3", "Russia debates with #61: Russia 3 (L394)")
  g:act("pass")
  g:act("leader", "castlereagh")
  g:act("on", "issue.recruit_br")
  g:act("discard", "hill")
  g:act_as("FR", "pass") -- only Napoleon could debate (L402)
  t:eq(where(g, "issue.recruit_br"), "BR-7")
  g:act("trade", "BR")
  g:act_as("AU", "offer", "wellington")
  g:act_as("BR", "give", "morillo")
  t:ok(util.contains(g:zone("hand.BR"), "wellington"), "Britain received Wellington (L404)")

  -- The end of the phase (L415-L417): Russia and Austria tie with 4 issues; Britain decides.
  t:eq(g:vars().diplomacy.counts, { FR = 3, RU = 4, AU = 4, BR = 3 })
  t:eq(g:prompt().seat, "BR")
  g:act("award", "AU")
  t:eq(g:counter("vp.AU"), 24, "Austria wins the Diplomacy Phase: 2 VP, Austria 24")
  t:eq(g:json().phase, "government")
end)

