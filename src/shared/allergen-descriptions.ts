// What each allergen of the set (allergen-set.ts) covers, in plain words, in each of the product's languages: read by
// the cook's allergen questions and the customer's 'Your allergies', never by the first view (its script's budget).
import { offered, type Allergen } from './allergen-set.js';
import type { Locale, OfferedLocale } from './i18n/locales.js';

/** Each allergen's description, by language. */
export const ALLERGEN_DESCRIPTIONS: Record<Allergen, Record<OfferedLocale, string>> = {
  celery: {
    en: 'Celery stalks, leaves, seeds and root (celeriac); also in stock cubes, soups and spice mixes.',
    es: 'Tallos, hojas, semillas y raíz de apio; también en caldos, sopas y mezclas de especias.',
    fr: 'Tiges, feuilles, graines et racine de céleri ; aussi dans les bouillons, soupes et mélanges d’épices.',
    hi: 'सेलरी के डंठल, पत्ते, बीज और जड़; स्टॉक क्यूब, सूप और मसाला मिश्रण में भी।',
    ar: 'سيقان الكرفس وأوراقه وبذوره وجذره؛ ويوجد أيضًا في مكعبات المرق والحساء وخلطات التوابل.',
  },
  'cereals containing gluten': {
    en: 'Wheat (spelt, khorasan), rye, barley and oats, and what is made from them: bread, pasta, flour, beer.',
    es: 'Trigo (espelta, kamut), centeno, cebada y avena, y lo que se hace con ellos: pan, pasta, harina, cerveza.',
    fr: 'Blé (épeautre, khorasan), seigle, orge et avoine, et ce qui en est fait : pain, pâtes, farine, bière.',
    hi: 'गेहूं (स्पेल्ट, खोरासान), राई, जौ और जई, और उनसे बनी चीज़ें: रोटी, पास्ता, आटा, बीयर।',
    ar: 'القمح (الحنطة والخراساني) والجاودار والشعير والشوفان وما يُصنع منها: الخبز والمعكرونة والدقيق والبيرة.',
  },
  crustaceans: {
    en: 'Prawns, shrimp, crab, lobster and crayfish; also in shrimp paste.',
    es: 'Gambas, langostinos, cangrejo, bogavante y cangrejo de río; también en pasta de gambas.',
    fr: 'Crevettes, crabe, homard et écrevisses ; aussi dans la pâte de crevettes.',
    hi: 'झींगा, केकड़ा, लॉबस्टर और क्रेफ़िश; झींगा पेस्ट में भी।',
    ar: 'الروبيان والقريدس والسلطعون والكركند وجراد البحر؛ ويوجد أيضًا في معجون الروبيان.',
  },
  eggs: {
    en: 'Eggs of any bird; also in mayonnaise, cakes, fresh pasta and glazes.',
    es: 'Huevos de cualquier ave; también en mayonesa, pasteles, pasta fresca y glaseados.',
    fr: 'Œufs de tout oiseau ; aussi dans la mayonnaise, les gâteaux, les pâtes fraîches et les dorures.',
    hi: 'किसी भी पक्षी के अंडे; मेयोनेज़, केक, ताज़ा पास्ता और ग्लेज़ में भी।',
    ar: 'بيض أي طائر؛ ويوجد أيضًا في المايونيز والكعك والمعكرونة الطازجة والطلاءات.',
  },
  fish: {
    en: 'Any fish; also in fish sauce, anchovy paste and some dressings.',
    es: 'Cualquier pescado; también en salsa de pescado, pasta de anchoas y algunos aliños.',
    fr: 'Tout poisson ; aussi dans la sauce de poisson, la pâte d’anchois et certaines sauces.',
    hi: 'कोई भी मछली; फ़िश सॉस, एंचोवी पेस्ट और कुछ ड्रेसिंग में भी।',
    ar: 'أي نوع من السمك؛ ويوجد أيضًا في صلصة السمك ومعجون الأنشوجة وبعض الصلصات.',
  },
  lupin: {
    en: 'Lupin seeds and flour, found in some breads, pastries and pasta.',
    es: 'Semillas y harina de altramuz, presentes en algunos panes, bollos y pastas.',
    fr: 'Graines et farine de lupin, présentes dans certains pains, pâtisseries et pâtes.',
    hi: 'ल्यूपिन के बीज और आटा, कुछ ब्रेड, पेस्ट्री और पास्ता में मिलता है।',
    ar: 'بذور الترمس ودقيقه، ويوجد في بعض أنواع الخبز والمعجنات والمعكرونة.',
  },
  milk: {
    en: 'Milk of cows, goats or sheep and what is made from it: butter, cheese, cream, ghee, paneer, yoghurt.',
    es: 'Leche de vaca, cabra u oveja y lo que se hace con ella: mantequilla, queso, nata, ghee, paneer, yogur.',
    fr: 'Lait de vache, de chèvre ou de brebis et ce qui en est fait : beurre, fromage, crème, ghee, paneer, yaourt.',
    hi: 'गाय, बकरी या भेड़ का दूध और उससे बनी चीज़ें: मक्खन, चीज़, क्रीम, घी, पनीर, दही।',
    ar: 'حليب البقر أو الماعز أو الغنم وما يُصنع منه: الزبدة والجبن والقشدة والسمن والبانير واللبن.',
  },
  molluscs: {
    en: 'Mussels, clams, oysters, scallops, squid, octopus and snails; also in oyster sauce.',
    es: 'Mejillones, almejas, ostras, vieiras, calamares, pulpo y caracoles; también en salsa de ostras.',
    fr: 'Moules, palourdes, huîtres, coquilles Saint-Jacques, calamars, poulpe et escargots ; aussi dans la sauce d’huître.',
    hi: 'मसल्स, क्लैम, सीप, स्कैलप, स्क्विड, ऑक्टोपस और घोंघे; ऑयस्टर सॉस में भी।',
    ar: 'بلح البحر والمحار والإسكالوب والحبار والأخطبوط والحلزون؛ ويوجد أيضًا في صلصة المحار.',
  },
  mustard: {
    en: 'Mustard seeds, powder, oil and leaves; also in dressings, curries and sauces.',
    es: 'Semillas, polvo, aceite y hojas de mostaza; también en aliños, curris y salsas.',
    fr: 'Graines, poudre, huile et feuilles de moutarde ; aussi dans les vinaigrettes, currys et sauces.',
    hi: 'सरसों के दाने, पाउडर, तेल और साग; ड्रेसिंग, करी और सॉस में भी।',
    ar: 'بذور الخردل ومسحوقه وزيته وأوراقه؛ ويوجد أيضًا في الصلصات والكاري.',
  },
  'tree nuts': {
    en: 'Almonds, hazelnuts, walnuts, cashews, pecans, pistachios, Brazil and macadamia nuts.',
    es: 'Almendras, avellanas, nueces, anacardos, pacanas, pistachos, nueces de Brasil y de macadamia.',
    fr: 'Amandes, noisettes, noix, noix de cajou, de pécan, du Brésil, de macadamia et pistaches.',
    hi: 'बादाम, हेज़लनट, अखरोट, काजू, पेकान, पिस्ता, ब्राज़ील नट और मैकाडामिया।',
    ar: 'اللوز والبندق والجوز والكاجو والبقان والفستق الحلبي والجوز البرازيلي والمكاديميا.',
  },
  peanuts: {
    en: 'Peanuts (groundnuts), peanut oil and butter; also in satay and some sweets.',
    es: 'Cacahuetes, su aceite y su crema; también en satay y algunos dulces.',
    fr: 'Arachides (cacahuètes), leur huile et leur beurre ; aussi dans le saté et certaines confiseries.',
    hi: 'मूंगफली, उसका तेल और मक्खन; सातय और कुछ मिठाइयों में भी।',
    ar: 'الفول السوداني وزيته وزبدته؛ ويوجد أيضًا في الساتاي وبعض الحلويات.',
  },
  sesame: {
    en: 'Sesame seeds, oil and paste (tahini); also in hummus, halva and breads.',
    es: 'Semillas, aceite y pasta de sésamo (tahini); también en hummus, halva y panes.',
    fr: 'Graines, huile et pâte de sésame (tahini) ; aussi dans le houmous, le halva et les pains.',
    hi: 'तिल के बीज, तेल और पेस्ट (ताहिनी); हमस, हलवा और ब्रेड में भी।',
    ar: 'بذور السمسم وزيته وعجينته (الطحينة)؛ ويوجد أيضًا في الحمص والحلاوة والخبز.',
  },
  soya: {
    en: 'Soya beans and what is made from them: tofu, soy sauce, miso, soya flour and oil.',
    es: 'Habas de soja y lo que se hace con ellas: tofu, salsa de soja, miso, harina y aceite de soja.',
    fr: 'Graines de soja et ce qui en est fait : tofu, sauce soja, miso, farine et huile de soja.',
    hi: 'सोयाबीन और उससे बनी चीज़ें: टोफ़ू, सोया सॉस, मिसो, सोया आटा और तेल।',
    ar: 'فول الصويا وما يُصنع منه: التوفو وصلصة الصويا والميسو ودقيق الصويا وزيته.',
  },
  sulphites: {
    en: 'Sulphur dioxide and sulphites above 10 mg per kg or litre: dried fruit, wine, some pickles.',
    es: 'Dióxido de azufre y sulfitos por encima de 10 mg por kg o litro: fruta seca, vino, algunos encurtidos.',
    fr: 'Anhydride sulfureux et sulfites au-delà de 10 mg par kg ou litre : fruits secs, vin, certains condiments.',
    hi: '10 मिलीग्राम प्रति किलो या लीटर से अधिक सल्फ़र डाइऑक्साइड और सल्फ़ाइट: सूखे मेवे, वाइन, कुछ अचार।',
    ar: 'ثاني أكسيد الكبريت والكبريتيت فوق 10 ملغ لكل كيلوغرام أو لتر: الفواكه المجففة والنبيذ وبعض المخللات.',
  },
  wheat: {
    en: 'Wheat in any form, gluten or not: flour, semolina, durum, atta, maida, seitan.',
    es: 'Trigo en cualquier forma, con o sin gluten: harina, sémola, trigo duro, atta, maida, seitán.',
    fr: 'Blé sous toute forme, avec ou sans gluten : farine, semoule, blé dur, atta, maida, seitan.',
    hi: 'किसी भी रूप में गेहूं, ग्लूटेन हो या न हो: आटा, सूजी, ड्यूरम, मैदा, सीतान।',
    ar: 'القمح بأي شكل، بغلوتين أو بدونه: الدقيق والسميد والقمح القاسي والأتا والميدة والسيتان.',
  },
};

/** What the allergen covers, in plain words, in `locale`. */
export const allergenDescription = (allergen: Allergen, locale: Locale): string =>
  ALLERGEN_DESCRIPTIONS[allergen][offered(locale)];
