-- Congress of Vienna: the cards' own effects when they are played in the Diplomacy Phase
-- (the black-circle bonuses, 16.2), keyed by card id. Each effect has
-- `bonus(ctx, power, piece)`, whether `power` collects the bonus by playing the card on the
-- issue marker `piece` now (a bot asks it: 21.5, "a card that cannot collect its bonus is a
-- normal card"), and `played(ctx, power, piece, how)`, which gives it, to negotiate or to
-- debate (`how`). Resources gained now are spent in the Government Phase; drm bonuses wait
-- in `vars.drm_bonuses` for the roll they modify; bonuses the Government Phase pays are
-- listed in `vars.government_bonuses`.

local display = include("rules/display.lua")

local effects = {}

local issue_of = display.issue_of

local function resource(ctx, power, card)
  ctx:add_counter("resources." .. power, 1)
  ctx:log(string.format("%s: +1 Resource for %s (now %d).", ctx.data.cards[card].name,
    ctx.data.seats[power].name, ctx:counter("resources." .. power)))
end

local function drm_bonus(ctx, power, card, rolls)
  local list = ctx.vars.drm_bonuses or {}
  list[#list + 1] = { power = power, card = card, rolls = rolls }
  ctx.vars.drm_bonuses = list
  ctx:log(string.format("%s: +1 drm for %s on the %s roll this turn.", ctx.data.cards[card].name,
    ctx.data.seats[power].name, rolls))
end

local function government_bonus(ctx, power, card, what)
  local list = ctx.vars.government_bonuses or {}
  list[#list + 1] = { power = power, card = card, what = what }
  ctx.vars.government_bonuses = list
  ctx:log(string.format("%s: %s (in the Government Phase).", ctx.data.cards[card].name, what))
end

-- An effect whose bonus `bonus(ctx, power, piece)` says when the card collects, and
-- `give(ctx, power, piece)` pays when it is played.
local function effect(bonus, give)
  return {
    bonus = bonus,
    played = function(ctx, power, piece)
      if bonus(ctx, power, piece) then
        give(ctx, power, piece)
      end
    end,
  }
end

-- TRAUTTMANSDORFF: played by Austria on Austria at War, 1 VP for Austria (16.2, Round 1).
effects.trauttmansdorff = effect(function(ctx, power, piece)
  return power == "AU" and issue_of(ctx, piece) == "austria_at_war"
end, function(ctx)
  local vp = ctx:add_counter("vp.AU", 1)
  ctx:log(string.format("Trauttmansdorff on Austria at War: +1 VP for Austria (%d).", vp))
end)

-- MARTIN GAUDIN: played by France on British Financial Aid, Holland, Italy or
-- Liberalism/Absolutism, +1 Resource for France; on Liberalism/Absolutism also +1 drm on
-- the Liberalism or Pax Britannica roll (A-5, 16.2 Round 3).
local GAUDIN_ISSUES = { fin_aid_br = true, holland = true, italy = true, lib_abs = true }
effects.gaudin = effect(function(ctx, power, piece)
  return power == "FR" and GAUDIN_ISSUES[issue_of(ctx, piece)] == true
end, function(ctx, _, piece)
  resource(ctx, "FR", "gaudin")
  if issue_of(ctx, piece) == "lib_abs" then
    drm_bonus(ctx, "FR", "gaudin", "Liberalism or Pax Britannica")
  end
end)

-- HUSKISSON: played by Britain on Liberalism/Absolutism or Russian Financial Aid, +1 drm
-- on the Liberalism or Pax Britannica roll (A-5).
effects.huskisson = effect(function(ctx, power, piece)
  local issue = issue_of(ctx, piece)
  return power == "BR" and (issue == "lib_abs" or issue == "fin_aid_ru")
end, function(ctx)
  drm_bonus(ctx, "BR", "huskisson", "Liberalism or Pax Britannica")
end)

-- BARON ELDON: played by Britain on one of the issues its card lists (British Military
-- Operation among them; the list is the card's `bonus_issues`), +1 Resource (16.2 Round 3).
effects.eldon = effect(function(ctx, power, piece)
  if power ~= "BR" then
    return false
  end
  local issue = issue_of(ctx, piece)
  for _, listed in ipairs(ctx.data.cards.eldon.fields.bonus_issues) do
    if listed == issue then
      return true
    end
  end
  return false
end, function(ctx)
  resource(ctx, "BR", "eldon")
end)

-- BARON BEXLEY: used by Britain in diplomacy, a die roll of 1-3 gives a Resource, and +1
-- drm on the Pax Britannica roll this turn (16.2 Round 4: Britain rolled a 5, no Resource).
effects.bexley = {
  bonus = function(_, power)
    return power == "BR"
  end,
  played = function(ctx, power)
    if power ~= "BR" then
      return
    end
    local roll = ctx:roll(6, "Baron Bexley: a Resource on 1-3")
    if roll <= 3 then
      resource(ctx, "BR", "bexley")
    else
      ctx:log(string.format("Baron Bexley: the die shows %d, no Resource.", roll))
    end
    drm_bonus(ctx, "BR", "bexley", "Pax Britannica")
  end,
}

-- KING FRIEDRICH WILHELM III: played by Russia on Russian Recruitment, a bonus printed
-- "1 VP unit" (A-5); the Government Phase pays it (which of the two it is: RULES-GAPS.md).
effects.friedrich_wilhelm_iii = effect(function(ctx, power, piece)
  return power == "RU" and issue_of(ctx, piece) == "recruit_ru"
end, function(ctx)
  government_bonus(ctx, "RU", "friedrich_wilhelm_iii", "the bonus printed \"1 VP unit\" for Russia")
end)

-- PONIATOWSKI: played on Poland before Austria at War has occurred, one more military
-- unit (L1836, cov-rules: "Poniatowski on Poland"); paid when the power that played it
-- funds Poland in the Government Phase (RULES-GAPS.md).
effects.poniatowski = effect(function(ctx, _, piece)
  return not ctx.vars.austria_at_war_done and issue_of(ctx, piece) == "poland"
end, function(ctx, power)
  government_bonus(ctx, power, "poniatowski", "one more military unit for " .. ctx.data.seats[power].name .. " if it funds Poland")
end)

return effects
