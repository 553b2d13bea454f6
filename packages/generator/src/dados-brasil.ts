// Catalogues of Brazilian real-estate data: cities, neighbourhoods, property types, names,
// characteristics as agents type them. Plain data, read by the property and condominium makers.

export interface Cidade {
  readonly nome: string;
  readonly uf: string;
  readonly ddd: string;
  readonly latitude: number;
  readonly longitude: number;
  /** First five CEP digits of the city's range, inclusive. */
  readonly cepMin: number;
  readonly cepMax: number;
  /** Price level relative to São Paulo. */
  readonly fatorPreco: number;
  /** How often the city appears: big markets have more listings. */
  readonly peso: number;
  readonly bairros: readonly string[];
  readonly ruas: readonly string[];
}

export const CIDADES: readonly Cidade[] = [
  {
    nome: 'São Paulo', uf: 'SP', ddd: '11', latitude: -23.5505, longitude: -46.6333, cepMin: 1000, cepMax: 5999,
    fatorPreco: 1, peso: 24,
    bairros: ['Pinheiros', 'Vila Mariana', 'Moema', 'Perdizes', 'Tatuapé', 'Santana', 'Itaim Bibi', 'Vila Madalena', 'Bela Vista', 'Jardim Paulista', 'Mooca', 'Butantã', 'Lapa', 'Brooklin', 'Campo Belo', 'Consolação'],
    ruas: ['Rua Augusta', 'Avenida Paulista', 'Rua Teodoro Sampaio', 'Rua Domingos de Morais', 'Alameda Santos', 'Rua Cardeal Arcoverde', 'Avenida Ibirapuera', 'Rua Tuiuti', 'Rua Voluntários da Pátria', 'Rua Harmonia'],
  },
  {
    nome: 'Rio de Janeiro', uf: 'RJ', ddd: '21', latitude: -22.9068, longitude: -43.1729, cepMin: 20000, cepMax: 23799,
    fatorPreco: 1.05, peso: 16,
    bairros: ['Copacabana', 'Ipanema', 'Leblon', 'Botafogo', 'Tijuca', 'Barra da Tijuca', 'Flamengo', 'Laranjeiras', 'Recreio dos Bandeirantes', 'Méier', 'Jacarepaguá', 'Grajaú'],
    ruas: ['Avenida Nossa Senhora de Copacabana', 'Rua Visconde de Pirajá', 'Avenida Ataulfo de Paiva', 'Rua Voluntários da Pátria', 'Rua Conde de Bonfim', 'Avenida das Américas', 'Rua Marquês de Abrantes', 'Rua das Laranjeiras'],
  },
  {
    nome: 'Belo Horizonte', uf: 'MG', ddd: '31', latitude: -19.9167, longitude: -43.9345, cepMin: 30000, cepMax: 31999,
    fatorPreco: 0.7, peso: 9,
    bairros: ['Savassi', 'Lourdes', 'Funcionários', 'Buritis', 'Pampulha', 'Sion', 'Santo Agostinho', 'Castelo', 'Serra', 'Padre Eustáquio'],
    ruas: ['Rua Pernambuco', 'Avenida do Contorno', 'Rua Rio Grande do Norte', 'Avenida Afonso Pena', 'Rua Professor Mário Werneck', 'Rua Grão Pará'],
  },
  {
    nome: 'Curitiba', uf: 'PR', ddd: '41', latitude: -25.4284, longitude: -49.2733, cepMin: 80000, cepMax: 82999,
    fatorPreco: 0.72, peso: 8,
    bairros: ['Batel', 'Água Verde', 'Bigorrilho', 'Centro Cívico', 'Portão', 'Cabral', 'Juvevê', 'Ecoville', 'Santa Felicidade', 'Alto da XV'],
    ruas: ['Rua XV de Novembro', 'Avenida Sete de Setembro', 'Rua Padre Anchieta', 'Avenida República Argentina', 'Rua Bruno Filgueira', 'Rua Comendador Araújo'],
  },
  {
    nome: 'Porto Alegre', uf: 'RS', ddd: '51', latitude: -30.0346, longitude: -51.2177, cepMin: 90000, cepMax: 91999,
    fatorPreco: 0.66, peso: 7,
    bairros: ['Moinhos de Vento', 'Bela Vista', 'Petrópolis', 'Menino Deus', 'Cidade Baixa', 'Auxiliadora', 'Tristeza', 'Mont\'Serrat', 'Bom Fim', 'Rio Branco'],
    ruas: ['Rua Padre Chagas', 'Avenida Ipiranga', 'Rua Mostardeiro', 'Avenida Protásio Alves', 'Rua da República', 'Avenida Getúlio Vargas'],
  },
  {
    nome: 'Salvador', uf: 'BA', ddd: '71', latitude: -12.9777, longitude: -38.5016, cepMin: 40000, cepMax: 42499,
    fatorPreco: 0.62, peso: 6,
    bairros: ['Barra', 'Pituba', 'Rio Vermelho', 'Graça', 'Itaigara', 'Caminho das Árvores', 'Ondina', 'Stella Maris', 'Imbuí', 'Costa Azul'],
    ruas: ['Avenida Oceânica', 'Rua Alagoinhas', 'Avenida Paulo VI', 'Rua das Hortênsias', 'Avenida Sete de Setembro', 'Rua Marquês de Caravelas'],
  },
  {
    nome: 'Recife', uf: 'PE', ddd: '81', latitude: -8.0476, longitude: -34.877, cepMin: 50000, cepMax: 52999,
    fatorPreco: 0.6, peso: 5,
    bairros: ['Boa Viagem', 'Casa Forte', 'Graças', 'Espinheiro', 'Aflitos', 'Pina', 'Madalena', 'Torre', 'Parnamirim', 'Derby'],
    ruas: ['Avenida Boa Viagem', 'Rua dos Navegantes', 'Avenida Rui Barbosa', 'Rua Amélia', 'Estrada do Encanamento', 'Rua Real da Torre'],
  },
  {
    nome: 'Fortaleza', uf: 'CE', ddd: '85', latitude: -3.7319, longitude: -38.5267, cepMin: 60000, cepMax: 61599,
    fatorPreco: 0.56, peso: 5,
    bairros: ['Meireles', 'Aldeota', 'Cocó', 'Praia de Iracema', 'Dionísio Torres', 'Papicu', 'Fátima', 'Varjota', 'Guararapes', 'Mucuripe'],
    ruas: ['Avenida Beira Mar', 'Rua Silva Jatahy', 'Avenida Santos Dumont', 'Rua Ana Bilhar', 'Avenida Dom Luís', 'Rua Tibúrcio Cavalcante'],
  },
  {
    nome: 'Florianópolis', uf: 'SC', ddd: '48', latitude: -27.5954, longitude: -48.548, cepMin: 88000, cepMax: 88099,
    fatorPreco: 0.95, peso: 5,
    bairros: ['Centro', 'Trindade', 'Jurerê Internacional', 'Campeche', 'Lagoa da Conceição', 'Itacorubi', 'Córrego Grande', 'Agronômica', 'Ingleses', 'Santa Mônica'],
    ruas: ['Avenida Beira-Mar Norte', 'Rua Bocaiúva', 'Rua Lauro Linhares', 'Avenida das Rendeiras', 'Rua Felipe Schmidt', 'Avenida Pequeno Príncipe'],
  },
  {
    nome: 'Campinas', uf: 'SP', ddd: '19', latitude: -22.9099, longitude: -47.0626, cepMin: 13000, cepMax: 13139,
    fatorPreco: 0.66, peso: 5,
    bairros: ['Cambuí', 'Taquaral', 'Barão Geraldo', 'Guanabara', 'Nova Campinas', 'Jardim Proença', 'Bosque', 'Mansões Santo Antônio', 'Castelo', 'Botafogo'],
    ruas: ['Rua Coronel Quirino', 'Avenida Norte-Sul', 'Rua Maria Monteiro', 'Avenida José de Souza Campos', 'Rua Barão de Jaguara', 'Avenida Brasil'],
  },
  {
    nome: 'Brasília', uf: 'DF', ddd: '61', latitude: -15.7939, longitude: -47.8828, cepMin: 70000, cepMax: 72799,
    fatorPreco: 0.9, peso: 5,
    bairros: ['Asa Sul', 'Asa Norte', 'Lago Sul', 'Sudoeste', 'Noroeste', 'Águas Claras', 'Guará', 'Lago Norte', 'Park Sul', 'Cruzeiro'],
    ruas: ['SQS 308 Bloco C', 'SQN 210 Bloco F', 'SHIS QI 9 Conjunto 4', 'Rua 12 Norte', 'CLSW 103', 'SQNW 111 Bloco A'],
  },
  {
    nome: 'Goiânia', uf: 'GO', ddd: '62', latitude: -16.6869, longitude: -49.2648, cepMin: 74000, cepMax: 74899,
    fatorPreco: 0.55, peso: 3,
    bairros: ['Setor Bueno', 'Setor Marista', 'Setor Oeste', 'Jardim Goiás', 'Setor Bela Vista', 'Alto da Glória', 'Setor Sul', 'Park Lozandes'],
    ruas: ['Avenida T-4', 'Rua 9', 'Avenida 85', 'Rua T-55', 'Avenida Ricardo Paranhos', 'Rua 1.124'],
  },
  {
    nome: 'Santos', uf: 'SP', ddd: '13', latitude: -23.9608, longitude: -46.3336, cepMin: 11000, cepMax: 11099,
    fatorPreco: 0.7, peso: 3,
    bairros: ['Gonzaga', 'Boqueirão', 'Ponta da Praia', 'Embaré', 'Aparecida', 'José Menino', 'Pompéia', 'Campo Grande'],
    ruas: ['Avenida Presidente Wilson', 'Avenida Bartolomeu de Gusmão', 'Rua Tolentino Filgueiras', 'Avenida Ana Costa', 'Rua Oswaldo Cruz'],
  },
  {
    nome: 'Niterói', uf: 'RJ', ddd: '21', latitude: -22.8832, longitude: -43.1034, cepMin: 24000, cepMax: 24399,
    fatorPreco: 0.75, peso: 3,
    bairros: ['Icaraí', 'Santa Rosa', 'São Francisco', 'Ingá', 'Camboinhas', 'Charitas', 'Boa Viagem', 'Piratininga'],
    ruas: ['Rua Moreira César', 'Rua Gavião Peixoto', 'Avenida Rui Barbosa', 'Rua Mariz e Barros', 'Estrada Francisco da Cruz Nunes'],
  },
];

export interface TipoImovel {
  readonly nome: string;
  /** Commercial-code prefix, e.g. `AP` for AP1234. */
  readonly prefixo: string;
  readonly categoria: 'Residencial' | 'Comercial';
  readonly peso: number;
  readonly areaMin: number;
  readonly areaMax: number;
  /** Bedrooms range; null for types that have none (offices, land). */
  readonly dormitorios: readonly [number, number] | null;
  /** Share of listings of this type inside a condominium. */
  readonly emCondominio: number;
  /** Sale price per m² in São Paulo, in reais. */
  readonly precoM2: number;
  readonly terreno: boolean;
}

export const TIPOS: readonly TipoImovel[] = [
  { nome: 'Apartamento', prefixo: 'AP', categoria: 'Residencial', peso: 40, areaMin: 38, areaMax: 190, dormitorios: [1, 4], emCondominio: 0.9, precoM2: 11_000, terreno: false },
  { nome: 'Casa', prefixo: 'CA', categoria: 'Residencial', peso: 15, areaMin: 70, areaMax: 420, dormitorios: [2, 5], emCondominio: 0.15, precoM2: 7_500, terreno: false },
  { nome: 'Sobrado', prefixo: 'SO', categoria: 'Residencial', peso: 7, areaMin: 90, areaMax: 320, dormitorios: [2, 4], emCondominio: 0.2, precoM2: 7_800, terreno: false },
  { nome: 'Cobertura', prefixo: 'CO', categoria: 'Residencial', peso: 4, areaMin: 120, areaMax: 480, dormitorios: [2, 5], emCondominio: 0.95, precoM2: 14_000, terreno: false },
  { nome: 'Kitnet', prefixo: 'KI', categoria: 'Residencial', peso: 4, areaMin: 18, areaMax: 40, dormitorios: [1, 1], emCondominio: 0.7, precoM2: 9_500, terreno: false },
  { nome: 'Studio', prefixo: 'ST', categoria: 'Residencial', peso: 3, areaMin: 22, areaMax: 45, dormitorios: [1, 1], emCondominio: 0.95, precoM2: 13_500, terreno: false },
  { nome: 'Casa em condomínio', prefixo: 'CC', categoria: 'Residencial', peso: 5, areaMin: 120, areaMax: 600, dormitorios: [3, 5], emCondominio: 1, precoM2: 9_000, terreno: false },
  { nome: 'Sala comercial', prefixo: 'SA', categoria: 'Comercial', peso: 8, areaMin: 25, areaMax: 220, dormitorios: null, emCondominio: 0.8, precoM2: 9_000, terreno: false },
  { nome: 'Loja', prefixo: 'LO', categoria: 'Comercial', peso: 4, areaMin: 35, areaMax: 600, dormitorios: null, emCondominio: 0.2, precoM2: 8_000, terreno: false },
  { nome: 'Galpão', prefixo: 'GA', categoria: 'Comercial', peso: 3, areaMin: 300, areaMax: 6_000, dormitorios: null, emCondominio: 0.1, precoM2: 2_800, terreno: false },
  { nome: 'Terreno', prefixo: 'TE', categoria: 'Residencial', peso: 5, areaMin: 200, areaMax: 2_000, dormitorios: null, emCondominio: 0.2, precoM2: 2_200, terreno: true },
  { nome: 'Chácara', prefixo: 'CH', categoria: 'Residencial', peso: 2, areaMin: 1_000, areaMax: 20_000, dormitorios: [2, 6], emCondominio: 0.05, precoM2: 450, terreno: false },
];

export const SITUACOES = ['Disponível', 'Reservado', 'Em negociação', 'Vendido', 'Alugado', 'Suspenso'] as const;

/**
 * Characteristics with the spellings agents actually type: the first is the tidy one, the
 * rest are case, accent and spacing variants the projection must fold together.
 */
export const CARACTERISTICAS: readonly (readonly string[])[] = [
  ['Piscina', 'piscina', ' piscina ', 'PISCINA'],
  ['Churrasqueira', 'churrasqueira', 'Churrasqueira '],
  ['Área de serviço', 'Area de Servico', 'área de serviço', 'Área de Serviço'],
  ['Salão de festas', 'Salao de festas', 'salão de festas', 'Salão  de festas'],
  ['Academia', 'academia', ' Academia'],
  ['Playground', 'playground'],
  ['Portaria 24h', 'portaria 24h', 'Portaria 24H'],
  ['Varanda gourmet', 'Varanda Gourmet', 'varanda  gourmet'],
  ['Ar-condicionado', 'ar-condicionado'],
  ['Armários embutidos', 'Armarios embutidos', 'armários embutidos'],
  ['Elevador', 'elevador'],
  ['Quintal', 'quintal'],
  ['Jardim', 'jardim'],
  ['Lavanderia', 'lavanderia'],
  ['Sauna', 'sauna'],
  ['Quadra poliesportiva', 'Quadra Poliesportiva'],
  ['Vista para o mar', 'vista para o mar', 'Vista para o Mar'],
  ['Aceita pets', 'aceita pets'],
  ['Gás encanado', 'Gas encanado', 'gás encanado'],
  ['Closet', 'closet'],
  ['Lareira', 'lareira'],
  ['Energia solar', 'energia solar'],
  ['Interfone', 'interfone'],
  ['Depósito', 'Deposito', 'depósito'],
  ['Escritório', 'Escritorio'],
  ['Espaço gourmet', 'Espaco gourmet', 'espaço gourmet'],
  ['Brinquedoteca', 'brinquedoteca'],
  ['Bicicletário', 'Bicicletario'],
  ['Segurança 24h', 'Seguranca 24h'],
  ['Cozinha americana', 'cozinha americana', 'Cozinha Americana'],
];

export const PRENOMES: readonly string[] = [
  'Maria', 'José', 'Ana', 'João', 'Francisca', 'Antônio', 'Juliana', 'Carlos', 'Márcia', 'Paulo',
  'Fernanda', 'Lucas', 'Patrícia', 'Rafael', 'Aline', 'Marcelo', 'Camila', 'Ricardo', 'Beatriz', 'Gustavo',
  'Larissa', 'Rodrigo', 'Letícia', 'Felipe', 'Vanessa', 'Bruno', 'Débora', 'Thiago', 'Simone', 'Eduardo',
  'Cláudia', 'André', 'Renata', 'Luiz', 'Sônia', 'Fábio', 'Helena', 'Vinícius', 'Luana', 'Sérgio',
];

export const SOBRENOMES: readonly string[] = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes',
  'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa',
  'Rocha', 'Dias', 'Nascimento', 'Andrade', 'Moreira', 'Nunes', 'Marques', 'Machado', 'Mendes', 'Freitas',
  'Cardoso', 'Ramos', 'Gonçalves', 'Araújo', 'Teixeira', 'Correia', 'Cavalcanti', 'Monteiro', 'Batista', 'Magalhães',
];

/** Lower case without accents, as names appear in e-mail addresses. */
function semAcento(texto: string): string {
  return texto.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}
export const PRENOMES_ASCII: readonly string[] = PRENOMES.map(semAcento);
export const SOBRENOMES_ASCII: readonly string[] = SOBRENOMES.map(semAcento);

export const DOMINIOS_EMAIL: readonly string[] = ['gmail.com', 'hotmail.com', 'yahoo.com.br', 'outlook.com', 'uol.com.br', 'bol.com.br', 'terra.com.br'];

export const IMOBILIARIAS: readonly string[] = ['imobiliariacentral.com.br', 'lopesimoveis.com.br', 'casanovaimoveis.com.br', 'portalimoveis.com.br'];

export const ADMINISTRADORAS: readonly string[] = [
  'Lello Condomínios', 'Auxiliadora Predial', 'Hubert Imóveis', 'APSA', 'Protel Administradora', 'Graiche',
  'Itambé Administradora', 'Cipa', 'Estasa', 'Guarida Imóveis', 'Administradora Brasil Sul', 'Habitacional Administração',
];

export const CONDOMINIO_PREFIXOS: readonly string[] = ['Residencial', 'Edifício', 'Condomínio', 'Condomínio Residencial', 'Edifício Comercial', 'Condomínio Edifício'];

export const CONDOMINIO_NOMES: readonly string[] = [
  'Jardim das Acácias', 'Solar das Palmeiras', 'Parque dos Ipês', 'Vila Bella', 'Torre Alta', 'Mirante do Vale',
  'Portal do Sol', 'Ilhas do Atlântico', 'Recanto das Flores', 'Bosque dos Jequitibás', 'Morada do Parque',
  'Grand Park', 'Alameda Jardins', 'Villaggio di Roma', 'Maison Royale', 'Costa Verde', 'Ponta Negra',
  'Vista Bela', 'Quinta da Boa Vista', 'Jardim Europa', 'Solar dos Girassóis', 'Green Village', 'Atlântico Sul',
  'Nova Aurora', 'Serra Dourada', 'Lagoa Azul', 'Monte Carlo', 'Parque das Águas', 'Ventura', 'Horizonte',
];

export const CONDOMINIO_SUFIXOS: readonly string[] = ['', '', '', '', ' II', ' III', ' - Torre A', ' - Torre B', ' Residence', ' Club'];

export const OBSERVACOES_INTERNAS: readonly string[] = [
  'Proprietário aceita proposta até 8% abaixo.',
  'Não informar o número do apartamento por telefone.',
  'Inquilino atual sai no fim do mês; visitas só com 24h de aviso.',
  'Proprietário mora fora, tratar com a filha.',
  'Há pendência de IPTU de 2024 a regularizar antes da escritura.',
  'Aceita carro como parte do pagamento.',
  'Imóvel em inventário; documentação em andamento.',
  'Visitas somente aos sábados pela manhã.',
  'Cliente exigente: enviar propostas por escrito.',
  'Negociar a comissão diretamente com o gerente.',
];

export const LOCAIS_CHAVES: readonly string[] = [
  'Portaria', 'Claviculário da loja, gancho 12', 'Com o proprietário', 'Com o zelador', 'Cofre da agência Centro',
  'Imobiliária parceira', 'Claviculário da loja, gancho 47', 'Caixa de chaves com senha no portão',
];

export const FRASES_DESCRICAO: readonly string[] = [
  'Imóvel bem iluminado, com ventilação cruzada e acabamento de primeira.',
  'Localização privilegiada, próximo a escolas, mercados e transporte público.',
  'Piso em porcelanato, janelas antirruído e armários planejados.',
  'Condomínio com lazer completo &amp; segurança 24 horas.',
  'Rua tranquila e arborizada, a poucos minutos do centro.',
  'Cozinha integrada à sala, ideal para receber amigos.',
  'Vista livre e sol da manhã em todos os cômodos.',
  'Pronto para morar, reformado recentemente.',
  'Excelente oportunidade para investidores &amp; primeira moradia.',
  'Ótimo padrão construtivo, prédio com fachada revestida.',
  'Documentação em dia, aceita financiamento bancário.',
  'Espaço versátil, ideal para escritório ou consultório.',
];

export const ADJETIVOS_TITULO: readonly string[] = ['Lindo', 'Excelente', 'Ótimo', 'Amplo', 'Aconchegante', 'Charmoso', 'Oportunidade:', 'Espetacular'];
