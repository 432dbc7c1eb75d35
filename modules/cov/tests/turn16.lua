-- Congress of Vienna: the Playbook's example of play (section 16: The Clash of Armies,
-- August 1813, Initial Situation card A-5), replayed move by move through the Initial and
-- Diplomacy Phases, checking what the Playbook states after each step. The numbers the
-- Playbook prints come from its text (Lnnn: lines of the Playbook); values it does not
-- print come from the test fixture (tests/owner-fixture.ron, whose header lists them).
-- The hands are those the narrative plays: the Playbook shows the opening hands only in
-- its figures, so each power is given the cards the text has it play, trade or discard,
-- in the Diplomacy Phase and in the War Phase's battles (Tecumseh, Hill and Morillo for
-- Britain, #64 Austrian Grenadier Defense for Austria). The text does not say which card
-- Britain discards with Castlereagh nor which it gives Austria in the last trade: Lord
-- Liverpool and Ferdinand VII, which the narrative never uses.

local util = include("@lib/util.lua")
local play = include("tests/lib/play.lua")

local FIXTURE = "tests/owner-fixture.ron"

local HANDS = {
  AU = { "metternich", "kaiser_franz", "kolowrat", "davout", "talleyrand", "wellington", "bellegarde",
    "trauttmansdorff", "andrew_jackson", "sherbrooke", "bernadotte", "nesselrode", "schwarzenberg", "radetzky",
    "grenadier_defense" },
  RU = { "alexander", "friedrich_wilhelm_iii", "soult", "poniatowski", "merveldt", "oudinot", "humboldt", "gentz",
    "marmont", "event_61", "guard_corps", "cossacks", "wittgenstein" },
  BR = { "castlereagh", "huskisson", "caulaincourt", "klenau", "eldon", "bexley", "hardenberg", "blucher", "hill",
    "morillo", "tecumseh", "liverpool", "ferdinand_vii" },
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

-- The power whose round turn it is negotiates `piece` with `card`.
local function negotiate(g, card, piece)
  g:act("negotiate", card)
  g:act("on", piece)
end

-- Each of `seats` in turn lets the play stand (no debate).
local function pass(g, seats)
  for _, seat in ipairs(seats) do
    g:act_as(seat, "pass")
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
local function diplomacy_phase(t)
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
  negotiate(g, "poniatowski", "issue.poland")
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
  negotiate(g, "trauttmansdorff", "issue.austria_at_war")
  t:eq(where(g, "issue.austria_at_war"), "AU-6", "Trauttmansdorff: 4 and +2 on Austria at War (L272)")
  t:eq(g:counter("vp.AU"), 22, "Trauttmansdorff on Austria at War: +1 VP, Austria 22")
  g:act_as("FR", "debate", "fouche")
  t:eq(where(g, "issue.austria_at_war"), "AU-2", "France debates it back to Austria 2 (L272)")

  -- Round 2 (L286-L294).
  negotiate(g, "friedrich_august", "issue.saxony")
  t:eq(where(g, "issue.saxony"), "FR-6", "Friedrich August counts 6 for Saxony in the French hand (L286)")
  pass(g, { "RU", "BR", "AU" })
  g:act("trade", "AU")
  g:act_as("RU", "offer", "merveldt")
  g:act_as("AU", "give", "bernadotte")
  negotiate(g, "huskisson", "issue.lib_abs")
  t:eq(where(g, "issue.lib_abs"), "BR-4", "Huskisson, 5 on Liberalism/Absolutism: Austria 1 to Britain 4 (L290)")
  g:act_as("FR", "pass") -- the pre-empt offer
  g:act_as("AU", "debate", "kaiser_franz")
  g:act_as("FR", "pass") -- the offer to pre-empt Austria's declared debate
  t:eq(where(g, "issue.lib_abs"), "AU-3", "Kaiser Franz 5 + 1 + 1 Austrian advantage = 7: back to Austria 3")
  negotiate(g, "talleyrand", "issue.lib_abs")
  -- The Playbook moves it "7 spaces from Austria-2 to theoretically 9" (L294), but the
  -- previous debate left it on Austria 3 (L290: "back to Austria -3"), so 3 + 7 = 10.
  t:eq(g:vars().diplomacy.beyond.n, 10, "Talleyrand: 7 spaces from Austria 3, 10 beyond the Seat")
  pass(g, { "FR", "RU", "BR" })
  t:eq(where(g, "issue.lib_abs"), "AU-7")
  t:eq(g:vars().secured["issue.lib_abs"], true, "no debate: secured on Austria's Seat")

  -- Round 3 (L300-L308).
  negotiate(g, "gaudin", "issue.italy")
  t:eq(where(g, "issue.italy"), "FR-5", "Gaudin 3 + 2 on Italy (L300)")
  t:eq(g:counter("resources.FR"), 1, "Gaudin on Italy: an additional Resource for France")
  pass(g, { "RU", "BR", "AU" })
  negotiate(g, "oudinot", "issue.poland")
  t:eq(where(g, "issue.poland"), "RU-2")
  g:act_as("FR", "pass")
  g:act_as("BR", "pass")
  g:act_as("AU", "debate", "kolowrat")
  g:act_as("FR", "pass")
  t:eq(where(g, "issue.poland"), "AU-1", "Austria debates Poland to Austria 1 with Kolowrat (L304)")
  negotiate(g, "eldon", "issue.mil_op_br.1")
  t:eq(where(g, "issue.mil_op_br.1"), "BR-4", "Eldon: the British Military Operation to Britain 4 (L306)")
  t:eq(g:counter("resources.BR"), 1, "Eldon on the British Military Operation: an additional Resource")
  g:act_as("FR", "pass") -- the pre-empt offer
  pass(g, { "AU", "FR", "RU" })
  negotiate(g, "nesselrode", "issue.future_government")
  t:eq(where(g, "issue.future_government"), "AU-4")
  pass(g, { "FR", "RU", "BR" })

  -- Round 4 (L316-L329).
  negotiate(g, "yorck", "issue.austria_at_war")
  t:eq(where(g, "issue.austria_at_war"), "table", "Yorck: Austria 2 to the Negotiation Table (L316)")
  g:act_as("RU", "debate", "humboldt")
  t:eq(where(g, "issue.austria_at_war"), "RU-5", "Von Humboldt 2 + 3 on Austria at War: Russia 5 (L316)")
  g:act("leader", "alexander")
  g:act("on", "issue.mil_op_ru")
  g:act("discard", "gentz")
  pass(g, { "BR", "AU", "FR" })
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
  pass(g, { "FR", "BR" })
  t:eq(where(g, "issue.generalissimo"), "AU-7", "Metternich secures Generalissimo (L329)")

  -- Round 5 (L352-L386).
  negotiate(g, "bulow", "issue.poland")
  t:eq(where(g, "issue.poland"), "FR-2")
  g:act_as("RU", "pass")
  g:act_as("BR", "debate", "hardenberg")
  t:eq(where(g, "issue.poland"), "BR-1", "Von Hardenberg 4 - 1 for the French track: Britain 1 (L364)")
  negotiate(g, "marmont", "issue.recruit_fr")
  t:eq(where(g, "issue.recruit_fr"), "RU-2")
  g:act_as("FR", "preempt", "ney")
  t:eq(where(g, "issue.recruit_fr"), "FR-3", "France pre-empts with Ney, bringing it to its track (L378)")
  t:eq(g:vars().diplomacy.preempts, 1)
  local _, used = g:space_of("marker.fr_preempts")
  t:eq(used, "1", "the French Pre-Empts track advances")
  negotiate(g, "blucher", "issue.recruit_fr")
  t:eq(where(g, "issue.recruit_fr"), "BR-1", "Blücher 5 - 1 for the French track")
  g:act_as("FR", "pass") -- the pre-empt offer
  g:act_as("AU", "debate", "merveldt")
  g:act_as("FR", "pass") -- France does not pre-empt a second time (L384)
  t:eq(where(g, "issue.recruit_fr"), "AU-3", "Austria debates with Merveldt: Austria 3 (L384)")
  t:ok(util.contains(g:legal(), "pass"), "Austria debated this round: it may pass")
  g:act("pass")

  -- Round 6 (L392-L404).
  negotiate(g, "stein", "issue.fin_aid_br.1")
  t:eq(where(g, "issue.fin_aid_br.1"), "FR-1", "Stein: Austria 2 to France 1 (L392)")
  g:act_as("RU", "debate", "event_61")
  t:eq(where(g, "issue.fin_aid_br.1"), "RU-3", "Russia debates with #61: Russia 3 (L394)")
  g:act("pass")
  g:act("leader", "castlereagh")
  g:act("on", "issue.recruit_br")
  g:act("discard", "liverpool")
  g:act_as("FR", "pass") -- only Napoleon could debate (L402)
  t:eq(where(g, "issue.recruit_br"), "BR-7")
  g:act("trade", "BR")
  g:act_as("AU", "offer", "wellington")
  g:act_as("BR", "give", "ferdinand_vii")
  t:ok(util.contains(g:zone("hand.BR"), "wellington"), "Britain received Wellington (L404)")

  -- The end of the phase (L415-L417): Russia and Austria tie with 4 issues; Britain decides.
  t:eq(g:vars().diplomacy.counts, { FR = 3, RU = 4, AU = 4, BR = 3 })
  t:eq(g:prompt().seat, "BR")
  g:act("award", "AU")
  t:eq(g:counter("vp.AU"), 24, "Austria wins the Diplomacy Phase: 2 VP, Austria 24")
  t:eq(g:json().phase, "Government Phase")
  return g
end

test("16.2 the Diplomacy Phase of August 1813", { instructions = 400000000, seconds = 20 }, function(t)
  diplomacy_phase(t)
end)


local function vp(g)
  return { FR = g:counter("vp.FR"), RU = g:counter("vp.RU"), AU = g:counter("vp.AU"), BR = g:counter("vp.BR") }
end

-- The Government Phase of August 1813 (16.3), from the end of the Diplomacy Phase: the
-- spending of every power in the Playbook's order, the two rolls and the new units.
local function government_phase(t, g)
  t:eq(g:prompt().seat, "AU", "Austria won the Diplomacy Phase and spends first (L423)")
  -- Income: France 6 + 1 (Gaudin), Russia 3 + 2 (Financial Aid), Britain 5 + 1 (Eldon) - 2
  -- paid to Russia, Austria 3 (L425-L431).
  t:eq({ g:counter("resources.FR"), g:counter("resources.RU"), g:counter("resources.BR"), g:counter("resources.AU") },
    { 7, 5, 4, 3 })
  t:eq(#play.lines(g, "British Financial Aid: Britain pays 1 Resource to Russia"), 2, "two Financial Aids paid to Russia")

  -- Austria (L433-L441): Liberalism/Absolutism, Generalissimo and the Future Government.
  t:ok(not util.contains(g:legal(), "fund issue.recruit_fr"), "French Recruitment only denies it to France (L437)")
  g:act("fund", "issue.lib_abs")
  g:act("fund", "issue.generalissimo")
  g:act("choose", "block.silesia")
  t:eq(where(g, "generalissimo.AU"), "silesia", "the Generalissimo headquarters with the Army of Silesia (L480)")
  g:act("fund", "issue.future_government")
  g:act("choose", "peers_regency")
  t:eq(where(g, "pawn.future_government"), "peers_regency")
  t:eq(vp(g), { FR = 53, RU = 28, AU = 27, BR = 18 }, "the French Peers Regency: France -2, the others +3 (Figure 21)")
  t:eq(g:counter("resources.AU"), 0)
  g:act("done")

  -- France (L425): the Military Operation (mandatory), Italy and Saxony, four supports.
  t:eq(g:prompt().seat, "FR")
  t:eq(g:counter("resources.FR"), 6, "the French Military Operation was paid first")
  g:act("fund", "issue.italy")
  g:act("fund", "issue.saxony")
  for _ = 1, 4 do
    g:act("support")
  end
  t:ok(not util.contains(g:legal(), "support"), "France owns four Military Support markers")
  t:eq(g:counter("vp.FR"), 55, "Italy and Saxony: 1 VP each")
  t:eq(g:units("reserve.FR", "FR"), 2, "two French units in Paris")
  g:act("done")

  -- Russia (L427): Austria at War and its Military Operation (mandatory), a support, +1 on
  -- the Absolutism roll, Sound Government.
  t:eq(g:counter("resources.RU"), 3, "two mandatory issues paid")
  t:eq(where(g, "block.bohemia"), "silesia", "Austria at War: the Army of Bohemia to Silesia (L439)")
  t:eq(where(g, "marker.war_status"), "general_war", "the War Status marker to General War")
  t:eq(g:counter("hand_size.AU"), 10, "Austria's hand loses its card for peace (Figure 25)")
  t:eq(where(g, "issue.austria_at_war"), nil, "Austria at War leaves the game")
  g:act("support")
  g:act("lib_abs")
  g:act("sound")
  t:eq(g:counter("vp.RU"), 29, "Sound Government: 1 VP")
  g:act("done")

  -- Britain (L429): the two Financial Aids were paid at income, the Military Operation,
  -- Recruitment (a unit and a fleet in London, -1 VP), two supports.
  t:eq(g:counter("resources.BR"), 3, "the Military Operation paid")
  g:act("fund", "issue.recruit_br")
  t:eq({ g:units("reserve.BR", "BR"), g:units("reserve.BR", "BR_fleet"), g:counter("vp.BR") }, { 1, 1, 17 },
    "British Recruitment: a unit and a fleet in London, Britain -1 VP")
  g:act("support")
  g:act("support")
  -- The Absolutism die shows 2: 2 + 1 (Russia's Resource) = 3, the pawn stays (L433).
  -- Pax Britannica: 3 + 2 (Huskisson, Bexley) = 5, the pawn enters Castile & Valencia Allied
  -- Controlled, Britain +3 (L451-L459).
  g:act("done", nil, { 2, 3 })
  t:eq(#play.lines(g, "Absolutism roll: 1 Russia's Resource + 2 the die = 3, below 4"), 1)
  t:eq(where(g, "pawn.absolutism"), "defense_of_the_faith")
  t:eq(#play.lines(g, "Pax Britannica roll: 1 Huskisson + 1 Baron Bexley + 3 the die = 5"), 1)
  t:eq(where(g, "pawn.pax_britannica"), "castile_valencia")
  t:eq(g:counter("vp.BR"), 20)

  -- New units (L461-L463): France's two to the Grande Armée, Britain's unit and fleet to the
  -- War of 1812 box.
  t:eq(g:prompt().seat, "FR")
  g:act("place", { kind = "FR", box = "army.grande_armee" })
  g:act("place", { kind = "FR", box = "army.grande_armee" })
  g:act("place", { kind = "BR", box = "war_of_1812" })
  g:act("place", { kind = "BR_fleet", box = "war_of_1812" })
  t:eq(g:units("army.grande_armee", "FR"), 15)
  t:eq({ g:units("war_of_1812", "BR"), g:units("war_of_1812", "BR_fleet") }, { 2, 4 })
  t:eq(g:json().phase, "War Phase")
  return g
end

-- Rule: 16.3. Expected: the spending the Playbook narrates (L425-L463) with its VP: France
-- 55, Russia 29, Austria 27, Britain 20 after the phase.
test("16.3 the Government Phase of August 1813", { instructions = 600000000, seconds = 30 }, function(t)
  local g = government_phase(t, diplomacy_phase(t))
  t:eq(vp(g), { FR = 55, RU = 29, AU = 27, BR = 20 })
end)

-- Steps 1-3 of the War Phase of August 1813 (16.4, L470-L501), from the end of the
-- Government Phase: France, on Austria's left, goes first.
local function war_steps(t, g)
  -- Step 1 (L472-L476): the French Military Operation with the Grande Armée, Napoleon's
  -- free one in the War of 1812 box; Russia's with the Army of Silesia; Britain's with the
  -- Army of Portugal; Austria has none.
  t:eq(g:prompt().seat, "FR")
  g:act("place", "block.grande_armee")
  t:ok(string.find(g:prompt().text, "Napoleon's free Military Operation", 1, true), g:prompt().text)
  g:act("place", "war_of_1812")
  g:act("place", "block.silesia")
  g:act("place", "block.portugal")
  t:eq(where(g, "issue.mil_op_fr"), "saxony")
  t:eq(where(g, "issue.mil_op_br.1"), "castile")

  -- Step 2 (L478-L488): France two with the Grande Armée (Napoleon is kept), one with the
  -- Army of Spain, one in the War of 1812 box; Russia one with the Army of Silesia;
  -- Britain one with the Army of Portugal and one in the War of 1812 box.
  g:act("place", "army.grande_armee")
  g:act("place", "army.grande_armee")
  t:ok(not util.contains(g:legal(), "place army.grande_armee"), "two on the Grande Armée at most")
  g:act("place", "army.spain")
  g:act("place", "war_of_1812")
  g:act("place", "army.silesia")
  g:act("place", "army.portugal")
  g:act("place", "war_of_1812")
  t:eq({ g:units("army.grande_armee", "FR_support"), g:units("army.silesia", "RU_support"),
    g:units("war_of_1812", "FR_support"), g:units("war_of_1812", "BR_support") }, { 2, 1, 1, 1 })

  -- Step 3 (L490-L501): France moves four units with Berthier in hand; Russia a Prussian and
  -- a Russian unit, Britain a Spanish and a British one, Austria two Austrian ones.
  for _, move in ipairs({ { "FR", "army.mediterranean", "army.spain" }, { "FR", "army.mediterranean", "army.spain" },
    { "FR", "army.elbe", "army.grande_armee" }, { "FR", "army.elbe", "army.grande_armee" },
    { "PR", "army.northern", "army.silesia" }, { "RU", "army.northern", "army.silesia" },
    { "SP", "army.eastern", "army.portugal" }, { "BR", "army.eastern", "army.portugal" } }) do
    g:act("move", { kind = move[1], from = move[2], to = move[3] })
  end
  t:eq(g:prompt().seat, "BR", "Britain may still move fleets")
  g:act("done")
  g:act("move", { kind = "AU", from = "army.tyrol", to = "army.bohemia" })
  g:act("move", { kind = "AU", from = "army.tyrol", to = "army.bohemia" })
  -- The set-up's 13 French units, the 2 of Italy and Saxony and the 2 from the Army of
  -- Elbe make 17; the Playbook prints "its impressive full strength of 16 units" (L495).
  t:eq(g:units("army.grande_armee", "FR"), 17)
  t:eq(g:units("army.silesia", "RU") + g:units("army.silesia", "PR") + g:units("army.bohemia", "AU"), 22)
  -- The set-up's 5 units of the Army of Spain and the 2 from the Army of Mediterranean make
  -- 7; the Playbook says both sides have nine (L533).
  t:eq(g:units("army.spain", "FR"), 7)
  t:eq(g:units("army.portugal", "BR") + g:units("army.portugal", "SP") + g:units("army.portugal", "PO"), 9)
  t:eq(g:state(), "battle_cards")
  return g
end

-- Rule: 16.4, steps 1-3. Expected: the placements and moves of L472-L501.
test("16.4 War Phase steps 1-3 of August 1813", { instructions = 800000000, seconds = 40 }, function(t)
  war_steps(t, government_phase(t, diplomacy_phase(t)))
end)

-- Rule: 16.4, step 4: the battles on Fronts A, C and G, from the positions the Playbook
-- narrates (its Grande Armée of 16 and Army of Spain of 9 are set by hand, above the 17 and
-- 7 the rules give: see war_steps).
test("16.4 the battles of August 1813", { instructions = 1000000000, seconds = 50 }, function(t)
  local g = war_steps(t, government_phase(t, diplomacy_phase(t)))
  g:add_units("army.grande_armee", "FR", -1)
  g:add_units("army.spain", "FR", 2)

  -- Front A (L507-L527): both sides attack; France lays Napoleon, Murat, Berthier and #65;
  -- Russia Bernadotte, #63, Wittgenstein and #66; Austria Radetzky, Reuss-Plauen and #64.
  t:eq(g:prompt().seat, "FR")
  for _, card in ipairs({ "napoleon", "murat", "berthier", "river_crossing" }) do
    g:act("lay", { card = card })
  end
  t:eq(#play.lines(g, "Murat", "RU"), 0, "the cards are laid face down")
  g:act("done")
  for _, card in ipairs({ "bernadotte", "guard_corps", "wittgenstein", "cossacks" }) do
    g:act("lay", { card = card })
  end
  g:act("done")
  for _, card in ipairs({ "radetzky", "reuss_plauen", "grenadier_defense" }) do
    g:act("lay", { card = card })
  end
  -- France rolls twice (Napoleon with Berthier): 3 + 4 and 2 + 2, the better is 7; the
  -- Allies 3 + 3.
  g:act("done", nil, { 3, 4, 2, 2, 3, 3 })
  -- Figure 26: France 16 + 6 = 22, cards 6 + 3 + 2 + 3 - 2 - 3 - 3 - 3 = 3, so 25, and 32
  -- with the roll; the Allies 22 + 3 + 3 = 28, cards 2 + 3 + 3 = 8, so 36, and 42.
  t:eq(#play.lines(g, "France: 16 units + 6 Military Support + 6 Napoleon + 3 Murat + 2 Berthier + 3 River Crossing − 3 "
    .. "Wittgenstein − 3 Cossacks − 2 Reuss-Plauen − 3 Austrian Grenadier Defense + 7 2d6 (the better of 7 and 4) = 32."), 1)
  t:eq(#play.lines(g, "The Allies: 22 units + 3 Military Support + 3 the Generalissimo's headquarters + 3 Bernadotte + 3 "
    .. "Guard Corps + 2 Radetzky + 6 2d6 (6) = 42."), 1)
  t:eq(#play.lines(g, "Losses: France 5, the Allies 4: the Allies win."), 1, "42 inflicts 5, 32 inflicts 4 (L515)")
  for _ = 1, 5 do
    g:act("remove", { box = "army.grande_armee", kind = "FR" })
  end
  t:eq(g:prompt().seat, "AU", "the Austrian Generalissimo chooses the Allied losses (L519)")
  g:act("remove", { box = "army.silesia", kind = "RU" })
  g:act("remove", { box = "army.silesia", kind = "PR" })
  g:act("remove", { box = "army.bohemia", kind = "AU" })
  g:act("remove", { box = "army.bohemia", kind = "AU" })
  t:eq(g:units("army.grande_armee", "FR"), 11, "the Grande Armée, now 11 units (L525)")
  t:eq(where(g, "block.grande_armee"), "bavaria", "it retreats to Bavaria")
  t:eq({ where(g, "block.silesia"), where(g, "block.bohemia"), where(g, "generalissimo.AU") },
    { "saxony", "saxony", "saxony" }, "both Allied armies advance into Saxony")
  -- A major battle with Napoleon: Austria +2, Russia +2, France -2 (L521); Saxony's 3 VP
  -- change hands (L525): France 55 - 2 - 3, Russia 29 + 2 + 3, Austria 27 + 2 + 3.
  t:eq(vp(g), { FR = 50, RU = 34, AU = 32, BR = 20 })
  t:eq(g:counter("hand_size.FR"), 12, "Saxony bears the French card symbol: 13 -> 12 (Figure 25)")

  -- Front C (L529-L539): Britain attacks Gascony, mountainous French homeland; France may
  -- withdraw and fights; it lays no card, Britain Wellington, Hill (against France) and
  -- Morillo. 9 + 3 + 3 = 15 against 9 + 3 - 3 = 9; after the cards 12 against 15.
  t:eq(g:prompt().seat, "FR")
  g:act("choose", false)
  g:act("done")
  g:act("lay", { card = "wellington" })
  g:act("lay", { card = "hill", target = "enemy" })
  g:act("lay", { card = "morillo" })
  -- France rolls 5 + 5, Britain the better of 3 + 3 and 2 + 1: 22 against 21 (L539).
  g:act("done", nil, { 5, 5, 3, 3, 2, 1 })
  t:eq(#play.lines(g, "France: 9 units + 3 Military Support + 3 homeland − 3 Hill + 10 2d6 (10) = 22."), 1)
  t:eq(#play.lines(g, "The Allies: 9 units + 3 Military Support − 3 attacking into the mountains + 4 Wellington + 3 Hill"), 0,
    "Hill is played against France")
  t:eq(#play.lines(g, "The Allies: 9 units + 3 Military Support − 3 attacking into the mountains + 4 Wellington + 2 Morillo "
    .. "+ 6 2d6 (the better of 6 and 3) = 21."), 1)
  t:eq(#play.lines(g, "Losses: France 2, the Allies 2: a draw."), 1)
  g:act("remove", { box = "army.spain", kind = "FR" })
  g:act("remove", { box = "army.spain", kind = "FR" })
  g:act("remove", { box = "army.portugal", kind = "BR" })
  g:act("remove", { box = "army.portugal", kind = "SP" })
  t:eq({ where(g, "block.portugal"), where(g, "block.spain") }, { "castile", "gascony" }, "a draw: nobody moves")

  -- Front G (L555-L559): France lays Andrew Jackson, Britain Sherbrooke and Tecumseh: 12
  -- against 14 (with the fixture's DRM for the three cards, which the Playbook does not
  -- print). France rolls 3 + 4, Britain 1 + 2: 19 and 17, two losses each, a draw;
  -- Tecumseh's die shows 3: he stays.
  g:act("lay", { card = "andrew_jackson" })
  g:act("done")
  g:act("lay", { card = "sherbrooke" })
  g:act("lay", { card = "tecumseh" })
  g:act("done", nil, { 3, 4, 1, 2 })
  t:eq(#play.lines(g, "France: 5 units + 3 Military Support + 4 Andrew Jackson + 7 2d6 (7) = 19."), 1)
  t:eq(#play.lines(g, "The Allies: 6 units + 3 Military Support + 3 Sherbrooke + 2 Tecumseh + 3 2d6 (3) = 17."), 1)
  g:act("remove", { box = "war_of_1812", kind = "US_militia" })
  g:act("remove", { box = "war_of_1812", kind = "US_militia" })
  g:act("remove", { box = "war_of_1812", kind = "BR_fleet" })
  g:act("remove", { box = "war_of_1812", kind = "BR" }, { 3 })
  t:eq(g:units("war_of_1812", "US_militia"), 1, "US Militia demobilization: one cube stays (L559)")
  t:eq(where(g, "marker.war_of_1812"), "0", "a draw: the status marker stays")
  t:eq(#play.lines(g, "Tecumseh: the die shows 3; he stays in the game."), 1)
  t:eq(g:json().phase, "End of Turn")

  -- The End of Turn (L561-L565): Britain +2 for Castile, France +2 with Austria at war,
  -- Austria +1 for its Generalissimo. France 52, Russia 34 and Britain 22, as printed;
  -- Austria 33, where the Playbook prints 32: its own items are 20 at set-up, +1 Austria at
  -- War on the Table (L121), +1 Trauttmansdorff (L272), +2 the Diplomacy Phase (L417), +3
  -- the Regency (Figure 21), +2 the major victory (L521), +3 Saxony (L525), +1 the
  -- Generalissimo (L563) = 33.
  t:eq(g:state(), "vp_summary")
  t:eq(vp(g), { FR = 52, RU = 34, AU = 33, BR = 22 })
  g:act("done")
  t:eq(g:turn(), 6, "the Clash of Armies goes on to September 1813")
  for _, leader in ipairs({ "napoleon", "alexander", "metternich", "castlereagh" }) do
    t:ok(util.contains(g:zone("hand." .. ({ napoleon = "FR", alexander = "RU", metternich = "AU", castlereagh = "BR" })[leader]),
      leader), leader .. " is back in its power's hand (L565)")
  end
  t:eq(where(g, "issue.mil_op_fr"), "display", "the issues are back on the Diplomacy Display")
  t:eq(g:units("supports.FR", "FR_support"), 4, "the Military Support markers are back")
end)

-- Rule: 18.4.7.2, 18.4.7.4 and 18.4.7.5, the Lützen & Bautzen French bot's War Phase, from
-- the August 1813 position at the end of the Government Phase. Set-up: France's
-- Operations go where the bot places them (the Grande Armée, then the Army of Elbe), Russia's
-- with the Army of Silesia and Britain's with the Army of Portugal: battles on Fronts A, B
-- and C. By hand, Berthier leaves France's hand (two moves), and France has 1 unit on
-- Fronts E and F and 3 on Front D, as in the example of 18.4.7.5. Expected: the example's
-- moves, the first to B, the second to A, both from D; the supports as 18.4.7.4 orders.
test("18.4.7.2-18.4.7.5 the French bot's War Phase (the example of 18.4.7.5)", { instructions = 800000000, seconds = 40 },
  function(t)
    local g = government_phase(t, diplomacy_phase(t))
    -- The bot's choice, as the rules print it, with its reasons; then played.
    local function bot_plays(expected, why)
      local choice, reasons = g:bot_choice("lutzen_france", "FR")
      t:eq(choice, expected[3], why .. " (" .. table.concat(reasons or {}, " ") .. ")")
      g:act(expected[1], expected[2])
    end
    bot_plays({ "place", "block.grande_armee", "place block.grande_armee" }, "18.4.7.2: the first Operation with the Grande Armée")
    bot_plays({ "place", "block.elbe", "place block.elbe" }, "18.4.7.2: the second on Front B")
    g:act("place", "block.silesia")
    g:act("place", "block.portugal")
    bot_plays({ "place", "army.grande_armee", "place army.grande_armee" }, "18.4.7.4: the Grande Armée gets 2")
    bot_plays({ "place", "army.grande_armee", "place army.grande_armee" }, "18.4.7.4: the Grande Armée gets 2")
    bot_plays({ "place", "army.elbe", "place army.elbe" }, "18.4.7.4: then Front B, which will have a battle")
    bot_plays({ "place", "army.spain", "place army.spain" }, "18.4.7.4: then Front C (D, G and E have no battle)")
    g:act("place", "army.silesia")
    g:act("place", "army.portugal")
    g:move_card("berthier", "discard")
    g:act("done")
    g:add_units("army.italy", "FR", -2)
    g:add_units("army.mediterranean", "FR", -1)
    t:eq({ g:units("army.naples", "FR"), g:units("army.italy", "FR"), g:units("army.mediterranean", "FR") }, { 1, 1, 3 })
    t:eq(g:state(), "strategic")
    bot_plays({ "move", { kind = "FR", from = "army.mediterranean", to = "army.elbe" }, "move {from: army.mediterranean, kind: FR, to: army.elbe}" }, "the first unit goes to B")
    bot_plays({ "move", { kind = "FR", from = "army.mediterranean", to = "army.grande_armee" }, "move {from: army.mediterranean, kind: FR, to: army.grande_armee}" }, "the second to A")
    t:eq(g:units("army.mediterranean", "FR"), 1, "Front D keeps its last unit")
    t:eq(g:prompt().seat, "RU", "France's two moves are made")
  end)

-- Rule: 18.4.6.1, the French bot's spending, from France's turn of the August 1813
-- Government Phase (6 Resources after its Military Operation). Expected: Italy and Saxony
-- (minor countries that give units), 3 Military Support markers (its Operation, Napoleon's
-- free one, and the Grande Armée's second marker), no Liberalism roll (Austria won the
-- issue: Absolutism), Sound Government with the last Resource.
test("18.4.6.1 the French bot's Government spending", { instructions = 800000000, seconds = 40 }, function(t)
  local g = diplomacy_phase(t)
  for _, answer in ipairs({ { "fund", "issue.lib_abs" }, { "fund", "issue.generalissimo" }, { "choose", "block.silesia" },
    { "fund", "issue.future_government" }, { "choose", "peers_regency" }, { "done" } }) do
    g:act(answer[1], answer[2])
  end
  t:eq({ g:prompt().seat, g:counter("resources.FR") }, { "FR", 6 })
  local chosen = {}
  while g:prompt().seat == "FR" and g:state() == "spend" do
    local choice, reasons = g:bot_choice("lutzen_france", "FR")
    chosen[#chosen + 1] = choice
    local name, arg = string.match(choice, "^(%S+) ?(.*)$")
    g:act(name, arg ~= "" and arg or nil)
    t:ok(#reasons > 0, "the choice explains itself")
  end
  t:eq(chosen, { "fund issue.italy", "fund issue.saxony", "support", "support", "support", "sound", "done" })
end)

-- Rule: 18.4.7.1, the French bot's placement of new units, from the August 1813
-- Government Phase (France's 2 units of Italy and Saxony). Expected: no army is empty and
-- the Grande Armée has 4 or more, so half of 2 (rounded up) to Front A, half of the 1 left
-- to Front B.
test("18.4.7.1 the French bot places new units", { instructions = 800000000, seconds = 40 }, function(t)
  local g = diplomacy_phase(t)
  for _, answer in ipairs({ { "fund", "issue.lib_abs" }, { "fund", "issue.generalissimo" }, { "choose", "block.silesia" },
    { "fund", "issue.future_government" }, { "choose", "peers_regency" }, { "done" }, { "fund", "issue.italy" },
    { "fund", "issue.saxony" }, { "done" }, { "done" } }) do
    g:act(answer[1], answer[2])
  end
  g:act("done", nil, { 2, 3 })
  t:eq({ g:state(), g:prompt().seat }, { "new_units", "FR" })
  local first, reasons = g:bot_choice("lutzen_france", "FR")
  t:eq(first, "place {box: army.grande_armee, kind: FR}", table.concat(reasons, " "))
  g:act("place", { kind = "FR", box = "army.grande_armee" })
  local second = g:bot_choice("lutzen_france", "FR")
  t:eq(second, "place {box: army.elbe, kind: FR}")
end)

-- Rule: 18.4.5.2 and 18.4.5.3, the French bot's wager card and Issue Selection, at the
-- August 1813 Wager with the narrative's hands. Expected: Stadion, France's one 4-valued
-- Austrian card and its highest Allied or Austrian one (the narrative's French player
-- wagered it too, L229); in Issue Selection, Saxony (Liberalism is taken), then Italy, a
-- minor ally that provides a unit (the French Military Operation is already on France's
-- track) -- the two issues the narrative's France selected (L249).
test("18.4.5.2-18.4.5.3 the French bot's wager and Issue Selection", { instructions = 400000000, seconds = 20 }, function(t)
  local g = initial_phase(t)
  g:act("take", "kaiser_franz")
  g:act("keep")
  g:act("table")
  deal_the_narrative(g)
  local choice, reasons = g:bot_choice("lutzen_france", "FR")
  t:eq(choice, "wager stadion", table.concat(reasons or {}, " "))
  g:act_as("AU", "wager", "davout")
  g:act_as("FR", "wager", "stadion")
  g:act_as("BR", "wager", "caulaincourt")
  g:act_as("RU", "wager", "soult")
  g:act("place", "issue.lib_abs")
  t:eq(g:bot_choice("lutzen_france", "FR"), "select issue.saxony")
  g:act("select", "issue.saxony")
  t:eq(g:bot_choice("lutzen_france", "FR"), "select issue.italy")
end)

-- Rule: 18.4.7.6, the French bot's withdrawal table: France withdraws when the Allies'
-- DRM advantage before cards and dice is at least 3 (France would play 0-1 military cards
-- on the front), 5 (2-3 cards) or 7 (more), +3 when the Grande Armée defends. Lützen &
-- Bautzen's Intr-2 forbids withdrawals, so the table is tried where the Playbook's own
-- example asks one: Britain's attack on Gascony in August 1813 (L531). Set-up: the
-- narrative to that question (Front A's battle played with the engine's dice). France has
-- 7 units (the 7 the rules give, not the narrative's 9: see the test above) + 3 Military
-- Support + 3 homeland = 13; the Allies 9 units + 3 Military Support - 3 attacking into the
-- mountains = 9; France's hand holds no military card it may play on Front C. British
-- units are added to the Army of Portugal by hand. Expected: 6 more (15 - 13 = 2 < 3) →
-- France fights; 7 more (16 - 13 = 3 >= 3) → France withdraws. Then Murat, Berthier and Ney
-- are put in France's hand: it would play all three on Front C, so the row is 5: 3 → it
-- fights; 9 more units (5) → it withdraws.
test("18.4.7.6 the French bot's withdrawal table", { instructions = 1200000000, seconds = 60 }, function(t)
  local g = war_steps(t, government_phase(t, diplomacy_phase(t)))
  g:set_dice("digital")
  play.to(g, function(game)
    local p = game:prompt()
    return p ~= nil and p.seat == "FR" and string.find(p.text, "Front C", 1, true) ~= nil
      and string.find(p.text, "withdraw", 1, true) ~= nil
  end)
  local function asked(added, expected, compared)
    g:add_units("army.portugal", "BR", added)
    local choice, reasons = g:bot_choice("lutzen_france", "FR")
    local why = table.concat(reasons, " ")
    t:eq(choice, expected, why)
    t:ok(string.find(why, compared, 1, true) ~= nil, why)
  end
  asked(0, "choose false", "Allied DRM advantage 9 - 13 = -4 >= 3 (0 French cards)? No. France fights.")
  asked(6, "choose false", "15 - 13 = 2 >= 3 (0 French cards)? No.")
  asked(1, "choose true", "16 - 13 = 3 >= 3 (0 French cards)? Yes. France withdraws.")
  for _, card in ipairs({ "murat", "berthier", "ney" }) do
    g:move_card(card, "hand.FR")
  end
  asked(0, "choose false", "16 - 13 = 3 >= 5 (3 French cards)? No. France fights.")
  asked(2, "choose true", "18 - 13 = 5 >= 5 (3 French cards)? Yes. France withdraws.")
end)
