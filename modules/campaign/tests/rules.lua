-- Napoleonic Wars Campaign: the text's worked numbers and the module's readings of its
-- contradictions (RULES-GAPS.md). Every printed cell of the four battle tables is checked
-- against the page by tests/tests/campaign.rs; these play the rules that read them.

local battle = include("rules/battle.lua")
local bank = include("rules/bank.lua")
local calendar = include("rules/calendar.lua")
local umpire = include("tests/lib/umpire.lua")

local FIXTURE = "tests/owner-fixture.ron"

-- Rule 19.4 with the field table: 1:1 odds and a roll of 2 read 25/20R (the text's own
-- example of how a cell reads). Set-up: France declares war on Austria in Winter 1806 (L44);
-- at that turn's battles France attacks Austria at 30 against 30, no advantage, with 20
-- infantry each; the dice 1 and 1.
-- Expected: France loses 25% (5 infantry), Austria 20% (4) and retreats.
test("19.4 field battle 1:1 roll 2 reads 25/20R", function(t)
  local g = umpire.to_war(t, { { "FR", "AU" } })
  umpire.fought(t, g, { kind = "field", attacker = "FR", defender = "AU", cv = { 30, 30 },
    arms = { { 20, 0, 0 }, { 20, 0, 0 } } }, { 1, 1 }, {
    "odds 1:1, column 1:1, roll 2 (2 modified): 25/20R",
    "France loses 25%: 5 infantry. Austria loses 20%: 4 infantry; retreats.",
  })
end)

-- Rule 19.4, meeting engagement: "a roll of a 7 at 1:1 odds both sides take 20% losses and
-- fall back". Set-up: Russia declares war on the Ottomans in Winter 1806; a meeting
-- engagement at 12 against 12, the dice 3 and 4.
-- Expected: 20R/20R, both lose 20% and both retreat.
test("19.4 meeting engagement 1:1 roll 7 reads 20R/20R, both fall back", function(t)
  local g = umpire.to_war(t, { { "RU", "OT" } })
  umpire.fought(t, g, { kind = "meeting", attacker = "RU", defender = "OT", cv = { 12, 12 },
    arms = { { 10, 0, 0 }, { 10, 0, 0 } } }, { 3, 4 }, {
    "roll 7 (7 modified): 20R/20R",
    "Russia loses 20%: 2 infantry; retreats. Ottoman Empire loses 20%: 2 infantry; retreats.",
  })
end)

-- Rule 19.8: losses by arm, half a unit rounded up and less rounded down: 10 infantry,
-- 5 cavalry and 2 artillery at 10% lose 1, 1 (0.5 up) and 0 (0.2 down); facing a single
-- infantry battalion the same army loses 1 at most.
test("19.8 losses by arm 10/5/2 at 10% are 1/1/0, capped by the opposing force", function(t)
  local lost, total = battle.losses({ infantry = 10, cavalry = 5, artillery = 2 }, battle.LAND_ARMS, 10)
  t:eq(lost, { infantry = 1, cavalry = 1, artillery = 0 })
  t:eq(total, 2)
  lost, total = battle.losses({ infantry = 10, cavalry = 5, artillery = 2 }, battle.LAND_ARMS, 10, 1)
  t:eq(lost, { infantry = 1, cavalry = 0, artillery = 0 }, "the cap takes infantry first (reading)")
  t:eq(total, 1)
end)

-- Rule 19.5(a) pursuit: the side that holds the field adds 1% to the loser's losses for
-- every ten cavalry regiments. Set-up: a field battle at 2:1 (20 against 10) read on a
-- roll of 2 (20/25R), the attacker with 25 cavalry. Expected: the defender loses 25% + 2%.
test("19.5a pursuit adds 1% per ten cavalry of the side that holds the field", function(t)
  local g = umpire.to_battles(t)
  umpire.fought(t, g, { kind = "field", attacker = "GB", defender = "FR", cv = { 20, 10 },
    arms = { { 10, 25, 0 }, { 100, 0, 0 } } }, { 1, 1 }, {
    "column 2:1, roll 2 (2 modified): 20/25R",
    "France loses 25% (+2% pursuit): 27 infantry; retreats.",
  })
end)

-- Rules 19.3 and 19.4: the battle advantage shifts one column toward its side; a general's
-- +1 counts in its side's favour (the low rolls are the attacker's). Set-up: France at war
-- with Prussia from Winter 1806; 30 against 30 (1:1), the attacker's advantage, the
-- attacker's general +1, the dice 4 and 4.
-- Expected: column 2:1, roll 8 modified to 7: 25/20R.
test("19.3 the battle advantage shifts a column and the general's +1 the roll", function(t)
  local g = umpire.to_war(t, { { "FR", "PR" } })
  umpire.fought(t, g, { kind = "field", attacker = "FR", defender = "PR", cv = { 30, 30 },
    advantage = "attacker", drm = 1, arms = { { 10, 0, 0 }, { 10, 0, 0 } } }, { 4, 4 },
    { "odds 1:1, column 2:1, roll 8 (7 modified): 25/20R" })
end)

-- Reading (RULES-GAPS.md): odds round in the defender's favour, to the highest column they
-- reach; odds beyond the table read its last column, and a cell the text leaves out of a
-- sparse last column is read from the column to its left.
test("reading: odds columns and the sparse last column", function(t)
  t:eq(battle.column("field", 29, 10), 4, "2.9:1 is the 2:1 column")
  t:eq(battle.column("field", 1, 5), 1, "1:5 reads 1:3, the lowest")
  t:eq(battle.column("field", 130, 10), 9, "13:1 reads 12:1")
  t:eq(battle.column("siege", 1, 2), 1, "a siege below 1:1 reads 1:1")
  t:eq(battle.shifted("field", 9, "attacker"), 9, "no column beyond the last")
  local g = umpire.to_war(t, { { "FR", "SW" } })
  local twelve_to_one = { kind = "field", attacker = "FR", defender = "SW", cv = { 120, 10 },
    arms = { { 10, 0, 0 }, { 10, 0, 0 } } }
  umpire.fought(t, g, twelve_to_one, { 2, 1 }, { "odds 12:1, column 6:1, roll 3 (3 modified): 4/40R" })
  umpire.fought(t, g, twelve_to_one, { 1, 1 }, { "odds 12:1, column 12:1, roll 2 (2 modified): 0/100" })
end)

-- Rule 19.9: a raid on a city of a province of 3 cities producing 7 RP costs 2 RP (rounded
-- down), 3 if the city is a Victory City (rounded up); the raided nation reads it and the
-- next turn's income is less by it. A raid is an attack (L44): Britain, at war with France
-- only, may raid France and nobody else.
test("19.9 a raid on a 3-city 7-RP province costs 2 RP, a Victory City 3", function(t)
  t:eq(bank.raid_loss(7, 3, false), 2)
  t:eq(bank.raid_loss(7, 3, true), 3)
  local g = umpire.to_battles(t)
  g:act("raid")
  g:act("set", "GB")
  t:eq(g:legal(), { "set FR", "cancel" })
  for _, v in ipairs({ "FR", 7, 3, true }) do
    g:act("set", v)
  end
  t:eq(g:private("FR").raided, 3)
  t:ok(umpire.told(g, "FR", "A raid costs you 3 RP of next turn's income."), "France is told")
  t:eq(umpire.told(g, "GB", "A raid costs you"), false, "Britain is not")
end)

-- Rules 6 and 22: a Victory Point for each Victory City beyond the starting number; a tie
-- goes to the smaller starting number. The text's example: France starts with 13 and ends
-- with 16, Spain starts with 5 and ends with 8: both score 3 and Spain wins.
test("6 victory: France 13 to 16 and Spain 5 to 8 tie on 3, and Spain wins", function(t)
  local g = umpire.to_battles(t)
  umpire.form(g, "held", { "FR", 16 })
  umpire.form(g, "held", { "SP", 8 })
  g:act("end_game")
  local result = g:result()
  t:eq(result.winners, { "SP" })
  t:eq(result.scores.FR, 3)
  t:eq(result.scores.SP, 3)
  t:eq(result.scores.AU, 0, "a nation that holds what it started with scores nothing")
end)

-- Reading (RULES-GAPS.md): France's starting Victory Cities are 13 (section 6) by default,
-- 15 (section 22) with victory.france_start=15. Section 22's own example: 15 to 20 is 5.
test("reading: France starts with 13 Victory Cities, or 15", function(t)
  local g = umpire.to_battles(t, { ["victory.france_start"] = "15" })
  umpire.form(g, "held", { "FR", 20 })
  g:act("end_game")
  t:eq(g:result().scores.FR, 5)
  g = umpire.to_battles(t)
  umpire.form(g, "held", { "FR", 20 })
  g:act("end_game")
  t:eq(g:result().scores.FR, 7)
end)

-- Rule 20.1: a nation forced to submit scores its victor a point (22.1), and under the
-- reparations terms pays its table's dollars each turn for a year (four turns). Set-up:
-- France at war with Austria from Winter 1806, Austria's submission that turn.
test("20.1 a submission scores a point and reparations are paid each turn", function(t)
  local g = umpire.to_war(t, { { "FR", "AU" } })
  umpire.form(g, "adjust", { "AU", "cash", 1000 })
  umpire.form(g, "submission", { "AU", "FR", "reparations" })
  umpire.finish_turn(g)
  g:act("published")
  t:eq(g:private("AU").bank.cash, 670, "Austria pays $330")
  t:eq(g:private("FR").bank.cash, 330)
  t:eq(g:vars().peace["AU|FR"].turns, 3)
  g:act_as("FR", "received")
  t:eq(g:vars().submissions.FR, 1)
end)

-- Rule 19.7: a replacement general's ratings by one die. Set-up: a die of 6.
-- Expected: rank B, battle 4, command 4, CV +10 and a +1 battle modifier, told to its nation.
test("19.7 a replacement general on a 6 is rank B, 4/4, +10, +1 battle", function(t)
  local g = umpire.to_battles(t)
  g:set_dice("physical")
  g:act("replacement")
  g:act("set", "RU", { 6 })
  t:ok(umpire.told(g, "RU", "Your new general: rank B, battle 4, command 4, CV +10, +1 battle modifier."), "Russia is told")
end)

-- Rules 4 and 8: the turn's steps, the calendar and the income. Turn 1 is Fall 1805 and
-- Spain's gold comes in the Fall (6d6 with its 2 trade dice: 8 dice, 8 to 48 RP); unspent
-- RP and AP are lost at the turn's end; turn 2 is Winter 1806.
test("4 the calendar, the income and the turn's nine steps", function(t)
  t:eq({ calendar.of(0) }, { "Summer", 1805 })
  t:eq({ calendar.of(1) }, { "Fall", 1805 })
  t:eq({ calendar.of(2) }, { "Winter", 1806 })
  t:eq({ calendar.of(35) }, { "Spring", 1814 })
  t:eq({ calendar.of(34) }, { "Winter", 1814 })
  local g = t:game { scenario = "fall-1805", seed = 3, overlay = FIXTURE }
  g:act("published")
  local spain = g:private("SP").bank.rp
  t:ok(spain >= 8 and spain <= 48, "Spain's trade and gold: " .. spain)
  t:ok(g:private("GB").bank.rp >= 8, "Britain's eight trade dice")
  t:eq(g:json("FR").private.SP, nil, "a nation's bank is its own")
  umpire.orders(g)
  t:eq(g:state(), "steps")
  umpire.finish_turn(g)
  t:eq(g:private("SP").bank.rp, 0, "RP are not banked")
  t:eq(g:turn(), 2)
  t:eq(g:json().phase, "Winter 1806 (turn 2)")
end)

-- Reading (RULES-GAPS.md): the campaign's last turn is Spring 1814 (turn 35) by default,
-- Winter 1814 (turn 34) with calendar.last_turn=winter-1814; the game ends after it with the
-- victory tally.
test("reading: the last turn is Spring 1814, or Winter 1814", function(t)
  t:eq(calendar.last_turn("spring-1814"), 35)
  t:eq(calendar.last_turn("winter-1814"), 34)
  local g = umpire.to_battles(t, { ["calendar.last_turn"] = "winter-1814" })
  umpire.finish_turn(g)
  for turn = 2, 34 do
    g:act("published")
    umpire.orders(g)
    umpire.finish_turn(g)
    if turn < 34 then
      t:eq(g:turn(), turn + 1)
    end
  end
  t:ok(g:result() ~= nil, "the game is over after Winter 1814")
  t:ok(g:result().text:find("after Winter 1814 (turn 34)", 1, true), g:result().text)
end)

-- Section 5 and 8, step 2: each nation's orders are private: the others read only that it
-- sent word; the umpire records them as received.
test("8 orders arrive in private, and the log says whose arrived", function(t)
  local g = umpire.to_battles(t)
  local json = g:json("GB")
  local seen = {}
  for _, entry in ipairs(json.log) do
    seen[#seen + 1] = entry.input
  end
  local all = table.concat(seen, "\n")
  t:ok(all:find("FR: sent word", 1, true), all)
  t:ok(not all:find("FR: received", 1, true), all)
  local public = table.concat(g:log("GB"), "\n")
  t:ok(public:find("Orders received from France, Austria, Britain", 1, true), public)
end)

-- Rule 19.6(e): half the ships the defeated side lost are captured. Set-up: a sea battle
-- at 1:1 (10 against 10) on a roll of 2 (20/25R), 20 men of war and 10 frigates each.
-- Expected: the defender loses 25% (5 men of war, 3 frigates: 2.5 rounds up) and retreats;
-- the attacker captures 4 of its 8 lost ships.
test("19.6e half the defeated side's lost ships are captured", function(t)
  local g = umpire.to_battles(t)
  umpire.fought(t, g, { kind = "sea", attacker = "GB", defender = "FR", cv = { 10, 10 },
    arms = { { 20, 10 }, { 20, 10 } } }, { 1, 1 }, {
    "column 1:1, roll 2 (2 modified): 20/25R",
    "France loses 25%: 5 men of war, 3 frigates; retreats. Britain captures 4 of France's lost ships.",
  })
end)

-- Rule 19.5(c): in a turn of the Death of a General event, one die for each side of a
-- battle; on a 1 its lowest-ranking general is killed. Set-up: France at war with Austria
-- from Winter 1806; a battle with the event, the battle's dice 3 and 4, then 1 for France
-- and 6 for Austria.
test("19.5c the Death of a General kills a side's general on a 1", function(t)
  local g = umpire.to_war(t, { { "FR", "AU" } })
  g:set_dice("physical")
  g:act("battle")
  for _, v in ipairs({ "field", "FR", "AU", 10, 10, "none", 0, 5, 0, 0, 5, 0, 0 }) do
    g:act("set", v)
  end
  g:act("set", true, { 3, 4, 1, 6 })
  t:ok(umpire.told(g, "FR", "France's lowest-ranking general in the battle is killed."), "France's general dies")
  t:ok(umpire.told(g, "AU", "France's lowest-ranking general in the battle is killed."), "Austria is told")
  t:eq(umpire.told(g, "FR", "Austria's lowest-ranking general"), false, "Austria's lives")
  t:eq(umpire.told(g, "GB", "general in the battle"), false, "Britain is told nothing")
end)

-- Rule 12.5: a force march costs 10% a hex beyond the movement allowance (France 5%), at
-- most the allowance again. Set-up: a Russian army of 20 infantry and 10 cavalry marches 2
-- hexes beyond its 3; a French one of 20 infantry 2 beyond; a march of 4 beyond 3, which the
-- form does not offer (it asks 1 to 3).
test("12.5 a force march costs 10% a hex, France 5%, at most double", function(t)
  local g = t:game { scenario = "fall-1805", seed = 1, overlay = FIXTURE }
  g:act("published")
  umpire.orders(g)
  g:act("done")
  umpire.form(g, "force_march", { "RU", 3, 2, 20, 10, 0 })
  t:ok(umpire.told(g, "RU", "costs 20%: 4 infantry, 2 cavalry, 0 artillery."), "Russia at 10% a hex")
  umpire.form(g, "force_march", { "FR", 3, 2, 20, 0, 0 })
  t:ok(umpire.told(g, "FR", "costs 10%: 2 infantry"), "France at 5% a hex")
  g:act("force_march")
  for _, v in ipairs({ "RU", 3 }) do
    g:act("set", v)
  end
  local ok, err = g:try("set", 4)
  t:eq(ok, false)
  t:ok(err:find("legal: set 1..3", 1, true), err)
end)

-- Rule 16.4: each privateering fleet takes 1d6 of the victim's trade and gains as much.
-- Set-up: Britain's 2 fleets against France, the dice 4 and 5. Expected: France's RP less
-- 9, Britain's more 9, both told.
test("16.4 privateering takes a die of trade a fleet", function(t)
  local g = umpire.to_battles(t)
  local fr, gb = g:private("FR").bank.rp, g:private("GB").bank.rp
  g:set_dice("physical")
  g:act("privateering")
  g:act("set", "GB")
  g:act("set", "FR")
  g:act("set", 2, { 4, 5 })
  t:eq(g:private("FR").bank.rp, math.max(0, fr - 9))
  t:eq(g:private("GB").bank.rp, gb + 9)
  t:ok(umpire.told(g, "FR", "Britain's privateers take 9 RP of France's trade"), "France is told")
end)

-- Marauders (section 10): an attrition attack of 1d6 x 5%. Set-up: the Ottomans declare war
-- on Russia in Winter 1806; their marauders against 20 Russian infantry and 7 cavalry, a
-- die of 3. Expected: 15%: 3 infantry and 1 cavalry (1.05), told to both.
test("10 marauders inflict 1d6 x 5% casualties", function(t)
  local g = umpire.to_war(t, { { "OT", "RU" } })
  g:set_dice("physical")
  g:act("marauders")
  for _, v in ipairs({ "OT", "RU", 20, 7 }) do
    g:act("set", v)
  end
  g:act("set", 0, { 3 })
  t:ok(umpire.told(g, "RU", "Ottoman Empire's marauders inflict 15% on Russia: 3 infantry, 1 cavalry, 0 artillery."), "Russia is told")
  t:ok(umpire.told(g, "OT", "inflict 15% on Russia"), "the Ottomans are told")
end)


-- Rule 8, step 8 (L62): a random event each turn, on the owner's table with the owner's dice
-- (the text gives neither: owner data, RULES-GAPS.md). Set-up: the fixture's placeholder
-- dice, two of six sides, rolled 3 and 4 at the table; then a game without the owner's
-- values. Expected:
-- "Random event (7): placeholder event 7"; without the dice entered, the step asks for them.
-- Ends the turn's steps up to the random event's.
local function to_event(g)
  for _ = 1, 12 do
    if table.concat(g:legal(), " "):find("event", 1, true) then
      return
    end
    g:act("done")
  end
end

test("8 the random event is rolled with the owner's dice", function(t)
  local g = umpire.to_battles(t)
  to_event(g)
  g:set_dice("physical")
  g:act("event", nil, { 3, 4 })
  t:ok(table.concat(g:log(), "\n"):find("Random event (7): placeholder event 7", 1, true), table.concat(g:log(), "\n"))
  local plain = t:game { scenario = "fall-1805", seed = 3 }
  plain:act("published")
  umpire.orders(plain)
  to_event(plain)
  local ok, err = pcall(function()
    plain:act("event")
  end)
  t:ok(not ok and tostring(err):find("random_event_dice", 1, true) ~= nil, tostring(err))
end)

-- Whether the umpire is offered the action `name` now.
local function offered(g, name)
  for _, action in ipairs(g:legal()) do
    if action == name or action:find("^" .. name .. " ") then
      return true
    end
  end
  return false
end

-- Opens the umpire's form `name`, enters `values`, and gives back the choices then offered
-- (the form is cancelled).
local function choices_after(g, name, values)
  umpire.form(g, name, values)
  local legal = g:legal()
  g:act("cancel")
  return legal
end

-- Rule 7 (L44): at the start only France and Britain are at war, and nobody attacks a
-- nation it has not declared war on. Set-up: turn 1's battles. Expected: the battle,
-- privateering and marauders' forms offer France and Britain alone, each the other's foe;
-- no declaration of war nor alliance is offered in the Fall; every nation reads the wars.
test("7 (L44) at the start only France and Britain are at war, and only they fight", function(t)
  local g = umpire.to_battles(t)
  t:eq(g:vars().war, { ["FR|GB"] = true })
  t:eq(g:vars().alliances, {})
  t:eq(choices_after(g, "battle", { "field" }), { "set FR", "set GB", "cancel" })
  t:eq(choices_after(g, "battle", { "siege", "FR" }), { "set GB", "cancel" })
  t:eq(choices_after(g, "battle", { "sea", "GB" }), { "set FR", "cancel" })
  t:eq(choices_after(g, "privateering", { "FR" }), { "set GB", "cancel" })
  t:eq(choices_after(g, "marauders", {}), { "set FR", "set GB", "cancel" })
  t:eq(offered(g, "declare_war"), false, "no declaration of war in the Fall")
  t:eq(offered(g, "alliance"), false, "no alliance in the Fall")
  t:eq(g:json("RU").view["At war"], "France and Britain", "every nation reads the wars")
end)

-- Rule 7 (L44): every declaration of war is made in the Winter turn, and opens the war
-- between the two. Set-up: turn 1 (Fall 1805), then Winter 1806, where France declares
-- war on Austria; then Spring 1806. Expected: no declaration in the Fall or the Spring;
-- in the Winter the declaration is public, France may then attack Austria, and a second
-- declaration between the two is refused.
test("7 (L44) war is declared in the Winter turn alone, publicly, and only then fought", function(t)
  local g = umpire.to_battles(t)
  t:eq(offered(g, "declare_war"), false)
  umpire.next_turn(g)
  t:eq(g:json().phase, "Winter 1806 (turn 2)")
  t:ok(offered(g, "declare_war"), "declarations in the Winter turn")
  umpire.form(g, "declare_war", { "FR", "AU" })
  t:eq(g:vars().war["AU|FR"], true)
  t:ok(umpire.told(g, "RU", "France declares war on Austria."), "every nation reads it")
  g:act("declare_war")
  g:act("set", "AU")
  local ok, err = g:try("set", "FR")
  t:eq(ok, false, "Austria is at war with France already")
  t:ok(err:find("legal:", 1, true), err)
  g:act("cancel")
  for _ = 1, 3 do
    g:act("done")
  end
  umpire.fought(t, g, { kind = "field", attacker = "AU", defender = "FR", cv = { 30, 30 },
    arms = { { 20, 0, 0 }, { 20, 0, 0 } } }, { 1, 1 }, { "field battle, Austria against France" })
  umpire.next_turn(g)
  t:eq(g:json().phase, "Spring 1806 (turn 3)")
  t:eq(offered(g, "declare_war"), false, "no declaration in the Spring")
  t:eq(g:vars().war["AU|FR"], true, "the war goes on")
end)

-- Rule 7 (L42): Britain and France may never ally, nor Turkey with Austria or Russia;
-- alliances change in the Winter turn alone. Set-up: Winter 1806; Austria and Russia ally.
-- Expected: France is not offered Britain, the Ottomans neither Austria nor Russia; the
-- alliance is public; allies are not offered war on each other (reading, RULES-GAPS.md);
-- in the Spring no alliance may be changed and it stands.
test("7 (L42) the forbidden alliances are refused, and alliances change in Winter only", function(t)
  local g = umpire.to_battles(t)
  t:eq(offered(g, "alliance"), false)
  umpire.next_turn(g)
  local partners = table.concat(choices_after(g, "alliance", { "FR" }), " ")
  t:ok(not partners:find("set GB", 1, true) and partners:find("set AU", 1, true), partners)
  partners = table.concat(choices_after(g, "alliance", { "GB" }), " ")
  t:ok(not partners:find("set FR", 1, true), partners)
  partners = table.concat(choices_after(g, "alliance", { "OT" }), " ")
  t:ok(not partners:find("set AU", 1, true) and not partners:find("set RU", 1, true)
    and partners:find("set PR", 1, true), partners)
  partners = table.concat(choices_after(g, "alliance", { "RU" }), " ")
  t:ok(not partners:find("set OT", 1, true), partners)
  t:eq(choices_after(g, "alliance", { "AU", "RU" }), { "set make", "cancel" })
  umpire.form(g, "alliance", { "AU", "RU", "make" })
  t:eq(g:vars().alliances["AU|RU"], { year = 1806 })
  t:ok(umpire.told(g, "FR", "Austria and Russia make an alliance"), "every nation reads it")
  local targets = table.concat(choices_after(g, "declare_war", { "AU" }), " ")
  t:ok(not targets:find("set RU", 1, true) and targets:find("set FR", 1, true), targets)
  umpire.next_turn(g)
  t:eq(offered(g, "alliance"), false, "no change to an alliance in the Spring")
  t:eq(g:vars().alliances["AU|RU"], { year = 1806 })
end)

-- Rule 7 (L42): alliances run from Winter to Fall and are renewed each Winter; one not
-- renewed lapses (reading: as the Winter turn ends, the turn of all changes; RULES-GAPS.md).
-- Set-up: Winter 1806, Austria-Russia and Prussia-Sweden ally; in Winter 1807 only
-- Austria-Russia is renewed. Expected: both stand through 1806; once renewed, the
-- Austrian-Russian alliance may only be broken; at the end of Winter 1807 Prussia-Sweden's
-- lapses, publicly, and Austria-Russia's stands.
test("7 (L42) an alliance not renewed in the Winter lapses as that turn ends", function(t)
  local g = umpire.winter(t)
  umpire.form(g, "alliance", { "AU", "RU", "make" })
  umpire.form(g, "alliance", { "PR", "SW", "make" })
  for _ = 1, 4 do
    umpire.next_turn(g)
  end
  t:eq(g:json().phase, "Winter 1807 (turn 6)")
  t:ok(g:vars().alliances["AU|RU"] and g:vars().alliances["PR|SW"], "both stand through 1806")
  t:eq(choices_after(g, "alliance", { "PR", "SW" }), { "set renew", "set break", "cancel" })
  umpire.form(g, "alliance", { "RU", "AU", "renew" })
  t:eq(g:vars().alliances["AU|RU"], { year = 1807 })
  t:eq(choices_after(g, "alliance", { "AU", "RU" }), { "set break", "cancel" })
  umpire.next_turn(g)
  t:eq(g:vars().alliances["PR|SW"], nil)
  t:eq(g:vars().alliances["AU|RU"], { year = 1807 })
  t:ok(umpire.told(g, "GB", "The alliance of Prussia and Sweden, not renewed this Winter, lapses."), "public")
end)

-- Rule 7 (L42): an ally of France may break the alliance in the turn after Napoleon's
-- defeat, whatever the season (reading of "a defeat by Napoleon", RULES-GAPS.md). Set-up:
-- Winter 1806, France and Spain ally; Spring 1806, Spain leaves. Expected: the action is
-- offered only while France has an ally; the alliance is gone, publicly.
test("7 (L42) an ally of France may leave it in the turn after Napoleon's defeat", function(t)
  local g = umpire.winter(t)
  t:eq(offered(g, "break_french_alliance"), false, "France has no ally")
  umpire.form(g, "alliance", { "FR", "SP", "make" })
  umpire.next_turn(g)
  t:eq(g:json().phase, "Spring 1806 (turn 3)")
  t:eq(offered(g, "alliance"), false)
  t:ok(offered(g, "break_french_alliance"), "offered outside the Winter")
  umpire.form(g, "break_french_alliance", { "SP" })
  t:eq(g:vars().alliances["FR|SP"], nil)
  t:ok(umpire.told(g, "RU", "Spain leaves its alliance with France after Napoleon's defeat."), "public")
  t:eq(offered(g, "break_french_alliance"), false)
end)

-- Rule 20.1 (L852): a submission ends the war between the two. Set-up: turn 1, Britain
-- submits to France (one province ceded, a two-year peace). Expected: France and Britain
-- are no longer at war, so no battle, privateering, marauders, capture or submission is
-- offered; the peace of eight turns is recorded; everyone reads the submission and, beside
-- the table, the peace.
test("20.1 (L852) a submission ends the war between the two", function(t)
  local g = umpire.to_battles(t)
  umpire.form(g, "submission", { "GB", "FR", "one-province" })
  t:eq(g:vars().war, {})
  t:eq(g:vars().peace["FR|GB"], { loser = "GB", to = "FR", terms = "one-province", turns = 8 })
  for _, action in ipairs({ "battle", "privateering", "marauders", "capital", "submission" }) do
    t:eq(offered(g, action), false, action)
  end
  t:ok(umpire.told(g, "RU", "Britain submits to France: one province ceded; their war ends"), "public")
  local view = g:json("RU").view
  t:eq({ view["At war"], view["Enforced peace"] }, { "none", "Britain, submitted to France (this turn and 8 more)" })
end)

-- Rule 20.1(a) (L854-L860): the terms' peaces last a year (four turns), two years (eight)
-- and a year; reparations are paid only under the third terms; no war is declared while a
-- peace holds; one nation's two submissions are both kept. Set-up: Winter 1806 (turn 2),
-- France at war with Austria and Prussia, Russia with Austria; Austria submits to France
-- (two provinces) and to Russia (reparations), Prussia to France (one province), each with
-- $5,000. Expected: Austria pays Russia $330 in each of turns 3 to 6 and nothing more;
-- Prussia pays nothing; in Winter 1807 (turn 6) France may declare war on neither; the
-- one-year peaces are over at turn 7; Prussia's holds through Winter 1808 (turn 10), when
-- France may declare war on Austria but not on Prussia, and is over at turn 11.
test("20.1a (L856-L860) peaces of one and two years; reparations only under the third terms", function(t)
  local g = umpire.to_war(t, { { "FR", "AU" }, { "FR", "PR" }, { "RU", "AU" } })
  for _, seat in ipairs({ "AU", "PR" }) do
    umpire.form(g, "adjust", { seat, "cash", 5000 })
  end
  umpire.form(g, "submission", { "AU", "FR", "two-provinces" })
  umpire.form(g, "submission", { "PR", "FR", "one-province" })
  umpire.form(g, "submission", { "AU", "RU", "reparations" })
  local peace = g:vars().peace
  t:eq(peace["AU|FR"], { loser = "AU", to = "FR", terms = "two-provinces", turns = 4 })
  t:eq(peace["FR|PR"], { loser = "PR", to = "FR", terms = "one-province", turns = 8 })
  t:eq(peace["AU|RU"], { loser = "AU", to = "RU", terms = "reparations", turns = 4 })
  umpire.next_turn(g)
  t:eq(g:private("AU").bank.cash, 4670, "Austria pays Russia $330, France nothing")
  t:eq(g:private("RU").bank.cash, 330)
  t:eq(g:private("PR").bank.cash, 5000, "no reparations under the second terms")
  t:eq(g:private("FR").bank.cash, 0)
  peace = g:vars().peace
  t:eq({ peace["AU|FR"].turns, peace["FR|PR"].turns, peace["AU|RU"].turns }, { 3, 7, 3 })
  for _ = 4, 6 do
    umpire.next_turn(g)
  end
  t:eq(g:json().phase, "Winter 1807 (turn 6)")
  t:eq(g:private("AU").bank.cash, 5000 - 4 * 330)
  t:ok(g:vars().peace["AU|FR"] ~= nil, "the year's peace holds in its fourth turn")
  g:act("declare_war")
  g:act("set", "FR")
  t:eq((g:try("set", "AU")), false, "no war on Austria during the peace")
  t:eq((g:try("set", "PR")), false, "no war on Prussia during the peace")
  g:act("cancel")
  umpire.next_turn(g)
  t:eq(g:vars().peace["AU|FR"], nil)
  t:eq(g:vars().peace["AU|RU"], nil)
  t:eq(g:private("AU").bank.cash, 5000 - 4 * 330, "four payments, no more")
  t:ok(umpire.told(g, "GB", "The enforced peace between Austria and France is over."), "public")
  for _ = 8, 10 do
    umpire.next_turn(g)
  end
  t:eq(g:json().phase, "Winter 1808 (turn 10)")
  t:eq(g:vars().peace["FR|PR"].turns, 0)
  g:act("declare_war")
  g:act("set", "FR")
  t:eq((g:try("set", "PR")), false, "the two years' peace holds in its eighth turn")
  g:act("cancel")
  umpire.form(g, "declare_war", { "FR", "AU" })
  t:eq(g:vars().war["AU|FR"], true)
  umpire.next_turn(g)
  t:eq(g:vars().peace, {})
end)

-- Rule 16.7 (L240): a nation's bank is kept at its capital, and all of it goes to the
-- nation that captures the capital; RP are not banked (L238). Set-up: turn 1, Britain with
-- $700 in its bank; France captures London. Expected: Britain's cash is 0 and its RP are
-- untouched, France's is $700; each of the two is told the sum, and everyone else reads
-- only that the capital fell; a nation not at war is not offered.
test("16.7 (L240) a captured capital's whole bank goes to the captor", function(t)
  local g = umpire.to_battles(t)
  umpire.form(g, "adjust", { "GB", "cash", 700 })
  local rp = g:private("GB").bank.rp
  t:eq(choices_after(g, "capital", {}), { "set FR", "set GB", "cancel" })
  umpire.form(g, "capital", { "GB", "FR" })
  t:eq(g:private("GB").bank.cash, 0)
  t:eq(g:private("GB").bank.rp, rp, "RP are not banked")
  t:eq(g:private("FR").bank.cash, 700)
  t:ok(umpire.told(g, "GB", "France takes your bank at your capital: $700."), "Britain is told")
  t:ok(umpire.told(g, "FR", "You take Britain's bank at its capital: $700."), "France is told")
  t:ok(umpire.told(g, "RU", "Britain's capital has fallen."), "public")
  t:eq(umpire.told(g, "RU", "$700"), false, "the sum is the two nations' alone")
  -- Russia's two capitals (reading, RULES-GAPS.md): entered once both have fallen.
  g = umpire.to_war(t, { { "FR", "RU" } })
  umpire.form(g, "adjust", { "RU", "cash", 90 })
  umpire.form(g, "capital", { "RU", "FR" })
  t:eq(g:private("FR").bank.cash, 90)
  t:ok(umpire.told(g, "AU", "Russia's capitals, St. Petersburg and Moscow, have both fallen."), "public")
end)

-- Reading (RULES-GAPS.md): an army out of supply counts -2 among its battle modifiers by
-- the supply rule (L196) but -1 by the battle modifiers table (L285-L286). The umpire
-- counts the modifiers; the battle form's advantage (its sixth field, as before) names the
-- value: -1 by default, -2 with battle.out_of_supply=-2.
test("reading (L196, L285-L286): out of supply counts -1, or -2 with the option", function(t)
  local function asked(g)
    umpire.form(g, "battle", { "field", "FR", "GB", 30, 30 })
    local text = g:prompt().text
    g:act("cancel")
    return text
  end
  local text = asked(umpire.to_battles(t))
  t:ok(text:find("Battle, 6 of 14: who has the battle advantage", 1, true), text)
  t:ok(text:find("an army out of supply counts -1", 1, true), text)
  text = asked(umpire.to_battles(t, { ["battle.out_of_supply"] = "-2" }))
  t:ok(text:find("an army out of supply counts -2", 1, true), text)
end)

-- A sea battle between Britain (attacking, CV 10) and France (CV 10), 20 men of war and 10
-- frigates each, with the fleets' orders given.
local function at_sea(orders, arms, cv)
  return { kind = "sea", attacker = "GB", defender = "FR", cv = cv or { 10, 10 },
    arms = arms or { { 20, 10 }, { 20, 10 } }, orders = orders }
end

local function public_battles(g)
  local n = 0
  for _, line in ipairs(g:log("RU")) do
    if line:find("A sea battle was fought", 1, true) then
      n = n + 1
    end
  end
  return n
end

-- Rule 19.6(a) (L652): two fleets that both intercept fight; two that both evade do not.
-- Expected: a battle on the dice 1 and 1 (1:1, 20/25R); then no battle and no dice, each
-- nation told so, nothing public.
test("19.6a (L652) both fleets intercept: a battle; both evade: none", function(t)
  local g = umpire.to_battles(t)
  umpire.fought(t, g, at_sea({ "intercept", "intercept" }), { 1, 1 }, { "column 1:1, roll 2 (2 modified): 20/25R" })
  t:ok(umpire.told(g, "FR", "Sea encounter, Britain (Intercept) and France (Intercept): both intercept; battle."), "France is told")
  t:eq(umpire.battle(g, at_sea({ "evade", "evade" }), {}), "", "no battle")
  t:ok(umpire.told(g, "GB", "Sea encounter, Britain (Evade) and France (Evade): both evade; no battle."), "Britain is told")
  t:eq(umpire.told(g, "RU", "Sea encounter"), false, "the encounter is the two nations'")
  t:eq(public_battles(g), 1)
end)

-- Rule 19.6(a) (L652): one fleet intercepting and one evading roll a die each; the evader
-- escapes only by rolling higher (a tie is the interceptor's: reading, RULES-GAPS.md).
-- Set-up: Britain intercepts, France evades; dice 2 against 5, then 5 against 2, then 4
-- and 4, each battle then rolled 1 and 1. Expected: France evades, then twice fails to.
test("19.6a (L652) intercept against evade: the evader escapes only by rolling higher", function(t)
  local g = umpire.to_battles(t)
  local told = umpire.battle(g, at_sea({ "intercept", "evade" }), { 2, 5 })
  t:eq(told, "")
  t:ok(umpire.told(g, "FR", "Britain rolls 2, France rolls 5: France's fleet evades; no battle."), "France evades")
  umpire.fought(t, g, at_sea({ "intercept", "evade" }), { 5, 2, 1, 1 },
    { "sea battle, Britain against France: odds 1:1, column 1:1, roll 2 (2 modified): 20/25R" })
  t:ok(umpire.told(g, "GB", "Britain rolls 5, France rolls 2: France's fleet fails to evade; Britain attacks."), "caught")
  told = umpire.battle(g, at_sea({ "intercept", "evade" }), { 4, 4, 1, 1 })
  t:ok(told:find("roll 2 (2 modified): 20/25R", 1, true), "a tie is a battle: " .. told)
  t:eq(public_battles(g), 2)
end)

-- Rule 19.6(a) (L652): an evading fleet all of frigates that fails to evade an
-- intercepting fleet with a man of war flees instead of fighting (the umpire moves it to
-- the nearest friendly port or sea area free of enemy fleets). Set-up: France's 6
-- frigates evade Britain's 1 man of war, dice 6 against 1; then Britain's 5 frigates
-- alone. Expected: France's frigates flee, no battle; against frigates alone, a battle.
test("19.6a (L652) frigates that fail to evade a man of war flee", function(t)
  local g = umpire.to_battles(t)
  local told = umpire.battle(g, at_sea({ "intercept", "evade" }, { { 1, 0 }, { 0, 6 } }), { 6, 1 })
  t:eq(told, "", "no battle")
  t:ok(umpire.told(g, "FR", "France's frigates flee from the men of war to the nearest friendly port"), told)
  t:eq(public_battles(g), 0)
  umpire.fought(t, g, at_sea({ "intercept", "evade" }, { { 0, 5 }, { 0, 6 } }), { 6, 1, 1, 1 },
    { "sea battle, Britain against France" })
end)

-- Readings (RULES-GAPS.md) of 19.6(a): the intercepting fleet attacks an evading fleet it
-- caught, and a fleet without orders intercepts. Set-up: Britain entered as the attacker
-- (CV 10, the battle advantage) evades France (CV 20), which intercepts; dice 1 against 6,
-- then 1 and 1. Expected: France attacks at 2:1, shifted to 1:1 by Britain's advantage.
-- Then Britain without orders against France intercepting: a battle at once, no dice of
-- evasion.
test("reading: the interceptor attacks an evader it caught, and no orders is Intercept", function(t)
  local g = umpire.to_battles(t)
  local b = at_sea({ "evade", "intercept" }, nil, { 10, 20 })
  b.advantage = "attacker"
  umpire.fought(t, g, b, { 1, 6, 1, 1 },
    { "sea battle, France against Britain: odds 2:1, column 1:1, roll 2 (2 modified): 20/25R" })
  t:ok(umpire.told(g, "FR", "Britain's fleet fails to evade; France attacks."), "France attacks")
  umpire.fought(t, g, at_sea({ "none", "intercept" }), { 1, 1 },
    { "sea battle, Britain against France: odds 1:1, column 1:1, roll 2 (2 modified): 20/25R" })
  t:ok(umpire.told(g, "GB", "Britain (no orders, read as Intercept) and France (Intercept): both intercept; battle."), "read as Intercept")
end)
