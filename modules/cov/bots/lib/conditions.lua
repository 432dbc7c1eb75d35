-- Congress of Vienna bots' shared library: the conditions of the bots' charts (data/
-- bot_charts.ron), a closed vocabulary. Each condition has the rule words it implements and
-- a test of the table; a condition the module cannot decide (the Rulebook's limits on
-- attacks, the Pax Britannica track's prerequisites) answers nil, and the players decide it
-- at the table from the row's printed words, as for "ask". The chart tables' OneOf lists
-- name exactly these conditions (a module test checks it).

local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local solo = include("rules/cdgsm_display.lua")
local battle = include("rules/battle.lua")
local rules_war = include("rules/war.lua")

local conditions = {}

local function war_status(ctx)
  return ctx.vars.war_status
end

-- Whether GAMBIER is known to be in the Allied hand: face up on the Coalition's display or
-- in its Military pile (the cards every player sees).
local function gambier_known(ctx)
  local zone = ctx:card_zone("gambier") or ""
  for _, what in ipairs({ "A", "B", "D", "E", "C.up", "military" }) do
    if zone == solo.zone("allies", what) then
      return true
    end
  end
  return false
end

-- Each condition: its words and its test (ctx, power, piece) -> true, false, or nil when
-- the players decide.
conditions.LIST = {
  always = { words = "the row always applies", test = function()
    return true
  end },
  limited_war = { words = "in Limited War, the turns before the Armistice takes effect", test = function(ctx)
    return war_status(ctx) == "limited"
  end },
  armistice = { words = "while the Armistice is in effect", test = function(ctx)
    return war_status(ctx) == "armistice"
  end },
  general_war = { words = "in General War, Austria at war with France", test = function(ctx)
    return war_status(ctx) == "general"
  end },
  austria_at_war = { words = "once Austria at War is in effect", test = function(ctx)
    return powers.austria_at_war(ctx)
  end },
  napoleon_negotiated = { words = "NAPOLEON negotiated the issue (20.7's example, step 1): in the debate of France's Leader play", test = function(ctx)
    return ctx.locals.leader == true and ctx.locals.player == "FR"
  end },
  gambier_not_known = {
    words = "GAMBIER is not known to be in the Allied hand: not face up on the Coalition's display nor in its Military pile (20.4's example)",
    test = function(ctx)
      return not gambier_known(ctx)
    end },
  -- Table 20.4.b's row 1 (L1563) asks both at once: the module decides the first half, and
  -- only when GAMBIER is not known do the players judge the second.
  gambier_not_known_front_c = {
    words = "GAMBIER is not known to be in the Allied hand (not face up on the Coalition's display nor in its Military pile) and Britain can attack on Front C (20.4's example; the Rulebook's limits on attacks are not in the module, so the players decide that half)",
    test = function(ctx)
      if gambier_known(ctx) then
        return false
      end
      return nil
    end },
  britain_attacks_front_c = {
    words = "Britain can attack on Front C (20.4's example); the Rulebook's limits on attacks are not in the module, so the players decide",
    test = function()
      return nil
    end },
  -- A row with this condition says the power "must debate" (20.8's example, L1645): when it
  -- holds, the debate is declared without Table 20.7.b (option allied_bot.must_debate).
  liberalism_unlocks_pax = {
    must_debate = true,
    words = "advancing the Liberalism pawn would let Pax Britannica advance (20.8's example); the players decide, the prerequisites being the printed track's",
    test = function()
      return nil
    end },
  grande_armee_fights = { words = "the Grande Armée fights in this battle", test = function(ctx)
    local state = (ctx.vars.war or {}).battle
    return state ~= nil and util.contains(state.armies.FR or {}, "block.grande_armee")
  end },
  defends_mountain = { words = "France defends a mountain space in this battle (the attacker's -3)", test = function(ctx)
    local state = (ctx.vars.war or {}).battle
    if state == nil or state.defender ~= "FR" or state.space == nil or state.front == "G" then
      return false
    end
    return battle.space_props(ctx, state.front, state.space).mountain == true
  end },
  napoleon_with_france = { words = "France holds NAPOLEON for the War Phase", test = function(ctx)
    return rules_war.napoleon_available(ctx)
  end },
  ask = { words = "the row's printed words, decided by the players at the table", test = function()
    return nil
  end },
  none = { words = "no such row: the printed table ends before it", test = function()
    return false
  end },
}

-- Whether condition `id` holds for `power` (and the issue `piece`, where the row is about
-- one): true, false, or nil when the players decide.
function conditions.holds(ctx, id, power, piece)
  local condition = conditions.LIST[id]
  if condition == nil then
    error(string.format("unknown chart condition '%s'", tostring(id)), 0)
  end
  return condition.test(ctx, power, piece)
end

-- Whether a row with condition `id` makes its power debate outright when it holds.
function conditions.must_debate(id)
  return (conditions.LIST[id] or {}).must_debate == true
end

-- The words of condition `id`.
function conditions.words(id)
  return (conditions.LIST[id] or {}).words
end

return conditions
