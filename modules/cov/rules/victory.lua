-- Congress of Vienna: when the game ends and who wins. Sudden death (80 VP at the end of a
-- turn: the leader with four or three players, France alone in the two-player and solitaire
-- seatings, L1182, L1736, L1941, L2005); each scenario's end and its final VP (17.2.4, 17.3, 17.4.5,
-- 17.5.4); the winner by the seating: four players (the most VP), two players (18.2.5),
-- three players (18.3), Lützen & Bautzen (18.4.3) and the solitaire games (20.12, 21.11,
-- 22.2). The Rules of Play's own conditions (Surrender of Napoleon, Amour Sacré) are the
-- players' decision where a scenario allows them (RULES-GAPS.md).

local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local forces = include("rules/forces.lua")

local victory = {}

local ALLIES = { "RU", "AU", "BR" }
local LAST_TURN = 10

local function vp(ctx, power)
  return ctx:counter("vp." .. power)
end

local function scores(ctx)
  local list = {}
  for _, power in ipairs(powers.in_game(ctx)) do
    list[power] = vp(ctx, power)
  end
  return list
end

local function allies_in_game(ctx)
  local list = {}
  for _, power in ipairs(ALLIES) do
    if util.contains(powers.in_game(ctx), power) then
      list[#list + 1] = power
    end
  end
  return list
end

-- The leading Allied power's VP.
local function allied_lead(ctx)
  local best
  for _, power in ipairs(allies_in_game(ctx)) do
    best = math.max(best or vp(ctx, power), vp(ctx, power))
  end
  return best or 0
end

-- The single power with the most VP, or nil on a tie.
local function leader(ctx)
  local best, who, tied = nil, nil, false
  for _, power in ipairs(powers.in_game(ctx)) do
    local n = vp(ctx, power)
    if best == nil or n > best then
      best, who, tied = n, power, false
    elseif n == best then
      tied = true
    end
  end
  return (not tied) and who or nil
end

local function french(ctx, front, space)
  return forces.controller(ctx, front, space) == "FR"
end

-- France controls Gascony, Bavaria and Holland (the Clash of Armies, 17.3; 20.12).
local function france_holds_the_three(ctx)
  return french(ctx, "C", "gascony") and french(ctx, "A", "bavaria") and french(ctx, "B", "holland")
end

local function bonus(ctx, power, n, why)
  powers.score(ctx, power, n, "End of the game, " .. why)
end

local function status_at_least(ctx, space)
  local _, at = ctx:space_of("marker.war_of_1812")
  local index = {}
  for i, entry in ipairs(ctx.data.places.war_of_1812_status.spaces) do
    index[entry.id] = i
  end
  return index[at] ~= nil and index[space] ~= nil and index[at] >= index[space]
end

-- Each scenario: whether it ends now besides its last turn, and its final VP.
local SCENARIOS = {}

-- The Napoleon Resurgent (17.2): it ends at the end of the first turn in which the
-- Armistice occurs, or of a turn in which another power has more VP than France.
SCENARIOS["napoleon-resurgent"] = {
  ends = function(ctx)
    if ctx.vars.armistice_turn == ctx:turn() then
      return "the Armistice occurred this turn"
    end
    for _, power in ipairs(allies_in_game(ctx)) do
      if vp(ctx, power) > vp(ctx, "FR") then
        return powers.name(ctx, power) .. " has more VP than France"
      end
    end
    return nil
  end,
  -- 17.2.4: Britain +2 with the War of 1812 marker on its +2 space; Austria +2 with 10
  -- units in the Armies of Bohemia and Tyrol; Russia and France +2 each if Austria at War
  -- was not in effect at the end of the August 1813 Diplomacy Phase; France +2 holding
  -- Prussia.
  final = function(ctx)
    if status_at_least(ctx, "br_2") then
      bonus(ctx, "BR", 2, "the War of 1812 marker on its +2 VP space")
    end
    if forces.units(ctx, "army.bohemia") + forces.units(ctx, "army.tyrol") >= 10 then
      bonus(ctx, "AU", 2, "10 units or more in the Armies of Bohemia and Tyrol")
    end
    if ctx.vars.austria_at_war_t5 == false then
      bonus(ctx, "RU", 2, "Austria at War was not in effect after the August 1813 Diplomacy Phase")
      bonus(ctx, "FR", 2, "Austria at War was not in effect after the August 1813 Diplomacy Phase")
    end
    if french(ctx, "B", "prussia") then
      bonus(ctx, "FR", 2, "France controls Prussia")
    end
  end,
  gap = 30,
}

-- The Clash of Armies (17.3): Britain +2 with the War of 1812 marker on its +1 space or
-- higher; France +2 for each of Bavaria, Gascony and Holland it controls.
SCENARIOS["clash-of-armies"] = {
  final = function(ctx)
    if status_at_least(ctx, "br_1") then
      bonus(ctx, "BR", 2, "the War of 1812 marker on its +1 VP space or higher")
    end
    for _, entry in ipairs({ { "A", "bavaria", "Bavaria" }, { "C", "gascony", "Gascony" }, { "B", "holland", "Holland" } }) do
      if french(ctx, entry[1], entry[2]) then
        bonus(ctx, "FR", 2, "France controls " .. entry[3])
      end
    end
  end,
  gap = 0,
  three_spaces = true,
}

-- The War in Germany: in 20, France also loses without Gascony, Bavaria and Holland at
-- the end (L1734, as the Clash's L1732 says; RULES-GAPS.md).
SCENARIOS["liberation-war"] = { gap = 15, three_spaces_in = { ["solo-vs-allied-bot"] = true } }

-- The Campaign for France 1814 (17.5.4): Austria +2 with the Italy space Allied.
SCENARIOS["desperate-times"] = {
  final = function(ctx)
    if forces.controller(ctx, "F", "italy") == "allied" then
      bonus(ctx, "AU", 2, "the Italy space is Allied")
    end
  end,
  each_ally = true,
  surrender = true,
}

SCENARIOS["full-campaign"] = { each_ally = true, surrender = true }
SCENARIOS["lutzen-bautzen"] = { no_sudden_death = true }

local function scenario(ctx)
  return SCENARIOS[ctx.scenario] or {}
end

-- Whether the players are asked about the Surrender of Napoleon at the end of a turn.
function victory.surrender_possible(ctx)
  return scenario(ctx).surrender == true
end

-- Lützen & Bautzen (18.4.3): with one or two players France wins with more VP than both
-- Russia and Britain, the Allies when France has fewer than both, else a draw; with three
-- players the most VP wins.
function victory.lutzen(ctx)
  if ctx.vars.seating == "three-players" then
    local who = leader(ctx)
    return who and { who } or {}, "The most VP wins (18.4.3)."
  end
  local fr, ru, br = vp(ctx, "FR"), vp(ctx, "RU"), vp(ctx, "BR")
  if fr > ru and fr > br then
    return { "FR" }, "France has more VP than Russia and than Britain (18.4.3)."
  elseif fr < ru and fr < br then
    return { "RU", "BR" }, "France has fewer VP than Russia and than Britain: the Allies win (18.4.3)."
  end
  return {}, "France has neither more VP than both Allies nor fewer than both: a draw (18.4.3)."
end

-- The Allies of the two-player game win (18.2.5): France within the scenario's gap of the
-- leading Allied power, or below every Allied power.
local function allies_beat_france(ctx, s)
  if s.three_spaces and france_holds_the_three(ctx) then
    return false, "France controls Gascony, Bavaria and Holland"
  end
  if s.each_ally or s.gap == nil then
    for _, power in ipairs(allies_in_game(ctx)) do
      if vp(ctx, power) <= vp(ctx, "FR") then
        return false, string.format("%s has no more VP than France", powers.name(ctx, power))
      end
    end
    return true, "every Allied power has more VP than France"
  end
  local gap = vp(ctx, "FR") - allied_lead(ctx)
  if gap <= s.gap then
    return true, string.format("France leads the leading Allied power by %d VP, %d or less", gap, s.gap)
  end
  return false, string.format("France leads the leading Allied power by %d VP, more than %d", gap, s.gap)
end

-- The Allies against the French bot (21.11, L1927-L1941): in the Spring Campaign the
-- leading Allied power 30 VP or less behind France; in the Clash, France wins holding
-- Gascony, Bavaria and Holland; in every other scenario, and in the Clash otherwise, each
-- Allied power needs more VP than France, a tie going to France.
function victory.against_the_french_bot(ctx, s, allies)
  if s.gap == 30 then
    local behind = vp(ctx, "FR") - allied_lead(ctx)
    if behind <= 30 then
      return allies, string.format("The leading Allied power is %d VP behind France, 30 or less (21.11).", behind)
    end
    return { "FR" }, string.format("The leading Allied power is %d VP behind France, more than 30 (21.11).", behind)
  end
  if s.three_spaces and france_holds_the_three(ctx) then
    return { "FR" }, "France controls Gascony, Bavaria and Holland (21.11)."
  end
  for _, power in ipairs(allies) do
    if vp(ctx, power) <= vp(ctx, "FR") then
      return { "FR" }, string.format("%s has %d VP, no more than France's %d: a tie goes to France (21.11).",
        powers.name(ctx, power), vp(ctx, power), vp(ctx, "FR"))
    end
  end
  return allies, "Each Allied power has more VP than France (21.11)."
end

-- The winners by the seating, and why.
function victory.winners(ctx)
  local s = scenario(ctx)
  local seating = ctx.vars.seating
  if ctx.vars.lutzen then
    return victory.lutzen(ctx)
  end
  local allies = allies_in_game(ctx)
  if seating == "two-players" then
    local ok, why = allies_beat_france(ctx, s)
    return ok and allies or { "FR" }, string.format("%s (18.2.5).", why)
  elseif seating == "solo-vs-french-bot" then
    return victory.against_the_french_bot(ctx, s, allies)
  elseif seating == "solo-vs-allied-bot" then
    -- 20.12: France wins ahead by the scenario's gap (more VP than every Allied power in
    -- the long games), and loses without Gascony, Bavaria and Holland where it needs them.
    local needs_three = s.three_spaces or (s.three_spaces_in or {})[seating]
    if needs_three and not france_holds_the_three(ctx) then
      return allies, "France does not control Gascony, Bavaria and Holland (20.12)."
    end
    local gap = vp(ctx, "FR") - allied_lead(ctx)
    local needed = (s.each_ally or s.gap == nil or s.gap == 0) and 1 or s.gap
    if gap >= needed then
      return { "FR" }, string.format("France leads the leading Allied power by %d VP (20.12).", gap)
    end
    return allies, string.format("France leads the leading Allied power by %d VP, not %d (20.12).", gap, needed)
  elseif seating == "solo-allied-power" then
    local human = ctx.vars.humans[1]
    if s.three_spaces and france_holds_the_three(ctx) then
      return { "FR" }, "France controls Gascony, Bavaria and Holland (22.2)."
    end
    if s.gap == 30 then
      local ok = vp(ctx, "FR") - vp(ctx, human) <= 30
      return ok and { human } or {}, string.format("%s is %d VP behind France (22.2: 30 or less).",
        powers.name(ctx, human), vp(ctx, "FR") - vp(ctx, human))
    end
    for _, power in ipairs(powers.in_game(ctx)) do
      if power ~= human and vp(ctx, power) >= vp(ctx, human) then
        return {}, string.format("%s does not have more VP than %s (22.2).", powers.name(ctx, human), powers.name(ctx, power))
      end
    end
    -- The Full Campaign and the Campaign for France 1814 ask more: France last (L2000).
    if s.each_ally then
      for _, power in ipairs(powers.in_game(ctx)) do
        if power ~= "FR" and vp(ctx, power) <= vp(ctx, "FR") then
          return {}, string.format("%s has more VP than every other power, but France is not last: %s has %d, France %d (22.2).",
            powers.name(ctx, human), powers.name(ctx, power), vp(ctx, power), vp(ctx, "FR"))
        end
      end
      return { human }, string.format("%s has more VP than every other power, and France is last (22.2).", powers.name(ctx, human))
    end
    return { human }, string.format("%s has more VP than every other power (22.2).", powers.name(ctx, human))
  elseif seating == "three-players" then
    -- 18.3: the player of Russia and Austria wins with Russia first and Austria second or
    -- third; otherwise the most VP among the others (RULES-GAPS.md).
    local order = util.copy(powers.in_game(ctx))
    table.sort(order, function(a, b)
      return vp(ctx, a) > vp(ctx, b)
    end)
    if order[1] == "RU" and (order[2] == "AU" or order[3] == "AU") and vp(ctx, "RU") > vp(ctx, order[2]) then
      return { "RU", "AU" }, "Russia is first and Austria second or third (18.3)."
    end
    local best, who = nil, {}
    for _, power in ipairs({ "FR", "BR" }) do
      if best == nil or vp(ctx, power) > best then
        best, who = vp(ctx, power), { power }
      elseif vp(ctx, power) == best then
        who = {}
      end
    end
    return who, "Russia is not first with Austria second or third: the most VP of France and Britain (18.3)."
  end
  if s.three_spaces and france_holds_the_three(ctx) then
    return { "FR" }, "France controls Gascony, Bavaria and Holland: it wins whatever the VP (17.3)."
  end
  local who = leader(ctx)
  return who and { who } or {}, who and "The most VP wins." or "A tie for the most VP: no single winner."
end

-- The seatings whose text gives sudden death to France alone: two players (18.2, L1182:
-- France the VP leader at 80 or more) and the solitaire games against a bot (20, L1736; 21,
-- L1941; 22, L2005: France at 80 or more).
local FRANCE_ALONE = {
  ["two-players"] = "lead",
  ["solo-vs-allied-bot"] = "reach",
  ["solo-vs-french-bot"] = "reach",
  ["solo-allied-power"] = "reach",
}

-- Who wins by sudden death at the end of this turn, if anyone, and how. Four and three
-- players (and 23, played as by four): the power in the lead with 80 VP or more (14.0, the
-- Rules of Play's Early Triumph; RULES-GAPS.md).
local function sudden_death(ctx)
  local france = FRANCE_ALONE[ctx.vars.seating]
  if france then
    local lead = leader(ctx) == "FR"
    if vp(ctx, "FR") >= 80 and (france == "reach" or lead) then
      return "FR", lead and "in the lead" or "(the seating's rule: France alone, in the lead or not)"
    end
    return nil
  end
  local who = leader(ctx)
  if who and vp(ctx, who) >= 80 then
    return who, "in the lead"
  end
  return nil
end

-- Whether the game ends now (the end of a turn), and its result.
function victory.check(ctx, surrendered)
  local s = scenario(ctx)
  local why
  if not s.no_sudden_death then
    local who, how = sudden_death(ctx)
    if who then
      ctx:log(string.format("Sudden death: %s has %d VP %s.", powers.name(ctx, who), vp(ctx, who), how))
      return { winners = { who }, scores = scores(ctx), text = string.format("%s reaches 80 VP %s: sudden death.",
        powers.name(ctx, who), how) }
    end
  end
  if surrendered then
    local best, who = nil, {}
    for _, power in ipairs(allies_in_game(ctx)) do
      if best == nil or vp(ctx, power) > best then
        best, who = vp(ctx, power), { power }
      end
    end
    return { winners = who, scores = scores(ctx), text = "Napoleon surrenders: the leading Allied power wins (RULES-GAPS.md)." }
  end
  if s.ends then
    why = s.ends(ctx)
  end
  -- A scenario without a last turn (the Napoleon Resurgent, 17.2.1) ends at the latest
  -- with the Full Campaign's, turn 10: no Initial Situation card follows it (RULES-GAPS.md).
  local last = ctx.vars.last_turn or LAST_TURN
  if why == nil and ctx:turn() >= last then
    why = string.format("turn %d is the scenario's last", last)
  end
  if why == nil then
    return nil
  end
  ctx:log(string.format("The game ends: %s.", why))
  if s.final then
    s.final(ctx)
  end
  local winners, text = victory.winners(ctx)
  return { winners = winners, scores = scores(ctx), text = text }
end

return victory
