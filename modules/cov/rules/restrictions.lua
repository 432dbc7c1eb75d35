-- Congress of Vienna: who may select, negotiate, debate and trade what when one person plays
-- several powers. Two players (18.2.3-18.2.4): France offers each Allied power one trade a
-- phase; only Austria negotiates or debates the Peace Congress and only Britain the Treaty
-- of Ghent; Russia or Austria, not both, negotiates and debates Absolutism in a turn;
-- Britain does not debate Liberalism/Absolutism while it is on the French track; until
-- Austria at War is in effect Austria leaves alone the French, Russian and British
-- Recruitment and Military Operations, the Armistice and Austria at War. Three players
-- (18.3): Russia and Austria neither trade with nor debate each other. A player does not
-- trade with or debate themself in the two-player game either (RULES-GAPS.md). Against a bot
-- (20, 21, 22) the table of 18.2.4 binds the Allied powers too ([20.8], [21.7.1]).

local powers = include("rules/powers.lua")
local display = include("rules/display.lua")
local solitaire = include("rules/solitaire.lua")

local restrictions = {}

-- The issues Austria leaves alone until Austria at War is in effect (18.2.4).
local AUSTRIA_AT_PEACE = {
  recruit_fr = true, recruit_ru = true, recruit_br = true,
  mil_op_fr = true, mil_op_ru = true, mil_op_br = true,
  armistice = true, austria_at_war = true,
}

local name, issue_of = powers.name, display.issue_of

local function dip(ctx)
  return ctx.vars.diplomacy or {}
end

-- Whether the table of 18.2.4 binds the Allied powers: with two players, and against a bot
-- (the Allied bot's [20.8] and the Allied human player's [21.7.1] bear its title, L1569,
-- L1852: RULES-GAPS.md), 22 included.
local function restricted(ctx)
  return powers.variant(ctx) == 2 or solitaire.against_bots(ctx)
end

-- Why `power` may not `what` ("select", "negotiate" or "debate") the issue `piece`; nil
-- when it may.
function restrictions.issue(ctx, power, piece, what)
  if not restricted(ctx) or power == "FR" then
    return nil
  end
  local issue = issue_of(ctx, piece)
  if what ~= "select" then
    if issue == "peace_congress" and power ~= "AU" then
      return "of the Allies only Austria negotiates or debates the Peace Congress (18.2.4)"
    elseif issue == "treaty_of_ghent" and power ~= "BR" then
      return "of the Allies only Britain negotiates or debates the Treaty of Ghent (18.2.4)"
    elseif issue == "lib_abs" then
      if what == "debate" and power == "BR" and display.track_of(ctx, piece) == "FR" then
        return "Britain does not debate Liberalism/Absolutism on the French track (18.2.4)"
      end
      local by = dip(ctx).absolutism
      if (power == "RU" or power == "AU") and by and by ~= power then
        return string.format("%s has played on Absolutism this turn: Russia or Austria may, not both (18.2.4)", name(ctx, by))
      end
    end
  end
  if power == "AU" and AUSTRIA_AT_PEACE[issue] and not powers.austria_at_war(ctx) then
    return "Austria leaves it alone until Austria at War is in effect (18.2.4)"
  end
  return nil
end

-- Notes a play that limits later ones: the first of Russia and Austria to negotiate or
-- debate Absolutism keeps it for the turn (two players).
function restrictions.played(ctx, power, piece)
  if restricted(ctx) and (power == "RU" or power == "AU") and issue_of(ctx, piece) == "lib_abs" then
    local d = ctx.vars.diplomacy
    d.absolutism = d.absolutism or power
  end
end

-- Why `power` may not debate the play of `player`; nil when it may.
function restrictions.debate(ctx, power, player)
  if powers.same_player(ctx, power, player) then
    return string.format("one player plays %s and %s (18.3)", name(ctx, power), name(ctx, player))
  end
  return nil
end

-- Why `from` may not offer `to` a trade now; nil when it may.
function restrictions.trade(ctx, from, to)
  if powers.same_player(ctx, from, to) then
    return string.format("one player plays %s and %s (18.3)", name(ctx, from), name(ctx, to))
  end
  if powers.variant(ctx) == 2 and from == "FR" and (dip(ctx).fr_trades or {})[to] then
    return string.format("France has offered %s its one trade this phase (18.2.3)", name(ctx, to))
  end
  return nil
end

-- Notes a trade offered (France's, in the two-player game).
function restrictions.traded(ctx, from, to)
  if powers.variant(ctx) == 2 and from == "FR" then
    local d = ctx.vars.diplomacy
    d.fr_trades = d.fr_trades or {}
    d.fr_trades[to] = true
  end
end

return restrictions
